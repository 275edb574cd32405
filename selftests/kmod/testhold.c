// SPDX-License-Identifier: GPL-2.0
/*
 * hmpgov_testhold: keeps the calling task inside a migrate_disable()
 * section, for tests.
 *
 * A write of N (1..60000) to /sys/kernel/debug/hmpgov_testhold/busy_ms
 * computes for N ms in the writer's own context with migration disabled,
 * as a task on PREEMPT_RT does inside a spinlock_t section: it stays
 * preemptible and keeps its CPU, and a change of its mask that takes it
 * off that CPU waits, in set_cpus_allowed_ptr(), until the write
 * returns. The loop gives the CPU away at each scheduling point, so
 * other tasks and RCU go on, and ends early on a fatal signal.
 *
 * Built only where the kernel counts these sections (5.11 and later,
 * selftests/kmod/Kbuild).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#define HOLD_MAX_MS	60000

static struct dentry *dir;

static ssize_t busy_ms_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	unsigned int ms;
	ktime_t end;
	int ret;

	ret = kstrtouint_from_user(buf, count, 10, &ms);
	if (ret)
		return ret;
	if (!ms || ms > HOLD_MAX_MS)
		return -EINVAL;
	end = ktime_add_ms(ktime_get(), ms);
	migrate_disable();
	while (ktime_before(ktime_get(), end) &&
	       !fatal_signal_pending(current)) {
		cpu_relax();
		cond_resched();
	}
	migrate_enable();
	return count;
}

static const struct file_operations busy_ms_fops = {
	.owner = THIS_MODULE,
	.write = busy_ms_write,
	.llseek = noop_llseek,
};

static int __init testhold_init(void)
{
	dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	debugfs_create_file("busy_ms", 0200, dir, NULL, &busy_ms_fops);
	return 0;
}

static void __exit testhold_exit(void)
{
	debugfs_remove_recursive(dir);
}

module_init(testhold_init);
module_exit(testhold_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("hmpgov test-only: a task held in a migrate_disable() section");
