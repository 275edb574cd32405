// SPDX-License-Identifier: GPL-2.0
/*
 * hmpgov's numeric tunables, from one table: each is a module parameter
 * checked at load and, where the table says so, a knob in
 * /sys/kernel/hmpgov that can be written at run time. The table gives
 * its bounds, default and unit, and whether a change makes the steering
 * worker decide again at once; the checks and error messages follow
 * from it. A knob write keeps /sys/module/hmpgov/parameters/ current.
 *
 * A bad value fails insmod with -EINVAL and one log line naming it; a bad
 * knob write gets -EINVAL, the same line (rate-limited) and changes
 * nothing. The four class thresholds must also keep their order:
 * 1 <= small_down < small_up <= big_down < big_up <= 1024.
 *
 * min_interval_ms, the name before class_hold_ms and move_interval_ms
 * existed, is kept as an alias that sets both (at load, not together
 * with either); it reads as move_interval_ms, also in
 * /sys/module/hmpgov/parameters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>
#include <linux/time64.h>

#include "hmpgov/hmpgov.h"
#include "hmpgov/placement.h"
#include "hmpgov/steer.h"
#include "hmpgov/util_signal.h"

#define KNOB	1U	/* also a knob in /sys/kernel/hmpgov, writable */
#define KICK	2U	/* a change makes the worker decide again at once */

enum tunable_id {
	T_MAX_TASKS, T_HALFLIFE, T_SMALL_DOWN, T_SMALL_UP, T_BIG_DOWN,
	T_BIG_UP, T_CLASS_HOLD, T_MOVE_INTERVAL, T_PACK_LIMIT, T_SHOW_BASE,
	NR_TUNABLES,
};

/*
 * @value is the parameter's storage: its default, then the load-time
 * value, then kept current by the knob (and shown by
 * /sys/module/hmpgov/parameters).
 */
struct tunable {
	const char *name, *unit;
	unsigned int min, max, value, flags;
	bool given;		/* as a parameter at load */
};

/* The table: name, unit, bounds, default, flags. */
static struct tunable tunables[NR_TUNABLES] = {
	[T_MAX_TASKS] = { "max_tasks", "tasks", 16, 1048576, 4096, 0 },
	[T_HALFLIFE] = { "halflife_ms", "ms", 1, 1000, 32, KNOB },
	[T_SMALL_DOWN] = { "small_down", "util", 0, 1024, HMPGOV_SMALL_DOWN, KNOB },
	[T_SMALL_UP] = { "small_up", "util", 0, 1024, HMPGOV_SMALL_UP, KNOB },
	[T_BIG_DOWN] = { "big_down", "util", 0, 1024, HMPGOV_BIG_DOWN, KNOB },
	[T_BIG_UP] = { "big_up", "util", 0, 1024, HMPGOV_BIG_UP, KNOB },
	[T_CLASS_HOLD] = { "class_hold_ms", "ms", 0, 1000, 4, KNOB },
	[T_MOVE_INTERVAL] = { "move_interval_ms", "ms", 0, 1000, 4, KNOB },
	[T_PACK_LIMIT] = { "pack_limit", "/1024", 1, 1024, HMPGOV_PACK_LIMIT,
			   KNOB | KICK },
	[T_SHOW_BASE] = { "show_base", "bool", 0, 1, 1, KNOB },
};

/*
 * The parameters read and show the table's values; the checks come at
 * load (hmpgov_tunables_load()), so that a bad value gets hmpgov's line.
 */
static int param_set(const char *val, const struct kernel_param *kp)
{
	struct tunable *t = kp->arg;

	t->given = true;
	return kstrtouint(val, 0, &t->value);
}

static int param_get(char *buf, const struct kernel_param *kp)
{
	const struct tunable *t = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(t->value));
}

static const struct kernel_param_ops tunable_param_ops = {
	.set = param_set,
	.get = param_get,
};

/*
 * The parameters, by hand: module_param_cb() wants a literal name.
 * modinfo's text: make check (scripts/check-tables.sh) holds each
 * "(min..max unit, default d)" to the table above.
 */
__MODULE_PARM_TYPE(max_tasks, "uint");
module_param_cb(max_tasks, &tunable_param_ops, &tunables[T_MAX_TASKS], 0444);
MODULE_PARM_DESC(max_tasks,
		 "Tasks tracked at most, rounded up to a power of 2 (16..1048576 tasks, default 4096)");
__MODULE_PARM_TYPE(halflife_ms, "uint");
module_param_cb(halflife_ms, &tunable_param_ops, &tunables[T_HALFLIFE], 0444);
MODULE_PARM_DESC(halflife_ms,
		 "Half-life of the utilization average; runtime: /sys/kernel/hmpgov/halflife_ms (1..1000 ms, default 32)");
__MODULE_PARM_TYPE(small_down, "uint");
module_param_cb(small_down, &tunable_param_ops, &tunables[T_SMALL_DOWN], 0444);
MODULE_PARM_DESC(small_down,
		 "A task under this utilization becomes small (0..1024 util, default 160)");
__MODULE_PARM_TYPE(small_up, "uint");
module_param_cb(small_up, &tunable_param_ops, &tunables[T_SMALL_UP], 0444);
MODULE_PARM_DESC(small_up,
		 "A small task at or above this becomes medium (0..1024 util, default 256)");
__MODULE_PARM_TYPE(big_down, "uint");
module_param_cb(big_down, &tunable_param_ops, &tunables[T_BIG_DOWN], 0444);
MODULE_PARM_DESC(big_down,
		 "A big task under this becomes medium (0..1024 util, default 512)");
__MODULE_PARM_TYPE(big_up, "uint");
module_param_cb(big_up, &tunable_param_ops, &tunables[T_BIG_UP], 0444);
MODULE_PARM_DESC(big_up,
		 "A task at or above this becomes big (0..1024 util, default 700)");
__MODULE_PARM_TYPE(class_hold_ms, "uint");
module_param_cb(class_hold_ms, &tunable_param_ops, &tunables[T_CLASS_HOLD],
		0444);
MODULE_PARM_DESC(class_hold_ms,
		 "Least time a task keeps its class before the next change (0..1000 ms, default 4)");
__MODULE_PARM_TYPE(move_interval_ms, "uint");
module_param_cb(move_interval_ms, &tunable_param_ops,
		&tunables[T_MOVE_INTERVAL], 0444);
MODULE_PARM_DESC(move_interval_ms,
		 "Least time between two moves of one task (0..1000 ms, default 4)");
__MODULE_PARM_TYPE(pack_limit, "uint");
module_param_cb(pack_limit, &tunable_param_ops, &tunables[T_PACK_LIMIT], 0444);
MODULE_PARM_DESC(pack_limit,
		 "Share of a little CPU the packed small tasks may use (1..1024 /1024, default 650)");
__MODULE_PARM_TYPE(show_base, "uint");
module_param_cb(show_base, &tunable_param_ops, &tunables[T_SHOW_BASE], 0444);
MODULE_PARM_DESC(show_base,
		 "1: sched_getaffinity() shows a steered task its base, not hmpgov's narrowing; 0: the kernel's mask (0..1 bool, default 1)");

/* The old name: given at load, it sets both intervals; it shows the moves'. */
static long long min_interval_ms;
static bool min_interval_given;

static int alias_param_set(const char *val, const struct kernel_param *kp)
{
	min_interval_given = true;
	return kstrtoll(val, 0, &min_interval_ms);
}

static int alias_param_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(tunables[T_MOVE_INTERVAL].value));
}

static const struct kernel_param_ops alias_param_ops = {
	.set = alias_param_set,
	.get = alias_param_get,
};

__MODULE_PARM_TYPE(min_interval_ms, "int");
module_param_cb(min_interval_ms, &alias_param_ops, NULL, 0444);
MODULE_PARM_DESC(min_interval_ms,
		 "Old name: sets class_hold_ms and move_interval_ms (0..1000 ms)");

static DEFINE_MUTEX(tunables_lock);	/* knob writes */

/*
 * 0 if @v fits @id's bounds, else -EINVAL after a line saying why that
 * names @name (the tunable's, or the old name written).
 */
static int check_range(enum tunable_id id, const char *name, long long v,
		       bool at_load)
{
	const struct tunable *t = &tunables[id];

	if (v >= t->min && v <= t->max)
		return 0;
	if (at_load)
		pr_err("%s=: %lld is out of range %u..%u\n", name, v, t->min,
		       t->max);
	else
		pr_warn_ratelimited("%s: %lld is out of range %u..%u; unchanged\n",
				    name, v, t->min, t->max);
	return -EINVAL;
}

/* The tunables' values, for checks across them. */
static void snapshot(unsigned int *v)
{
	unsigned int i;

	for (i = 0; i < NR_TUNABLES; i++)
		v[i] = tunables[i].value;
}

static void thresholds_of(const unsigned int *v, struct hmpgov_thresholds *t)
{
	t->small_down = v[T_SMALL_DOWN];
	t->small_up = v[T_SMALL_UP];
	t->big_down = v[T_BIG_DOWN];
	t->big_up = v[T_BIG_UP];
}

/* The checks across tunables: the thresholds' order. */
static int cross_check(const unsigned int *v, bool at_load)
{
	struct hmpgov_thresholds t;

	thresholds_of(v, &t);
	if (!hmpgov_thresholds_check(&t))
		return 0;
	if (at_load)
		pr_err("small_down=, small_up=, big_down=, big_up=: %u, %u, %u, %u must keep 1 <= small_down < small_up <= big_down < big_up <= 1024\n",
		       t.small_down, t.small_up, t.big_down, t.big_up);
	else
		pr_warn_ratelimited("small_down, small_up, big_down, big_up: %u, %u, %u, %u would break 1 <= small_down < small_up <= big_down < big_up <= 1024; unchanged\n",
				    t.small_down, t.small_up, t.big_down,
				    t.big_up);
	return -EINVAL;
}

/* Publish @id's value to the settings the probes and the worker read. */
static void publish(enum tunable_id id)
{
	unsigned int v[NR_TUNABLES];
	struct hmpgov_thresholds t;
	u32 ms = tunables[id].value;

	switch (id) {
	case T_HALFLIFE:
		WRITE_ONCE(hmpgov_settings.halflife_rate,
			   hmpgov_halflife_rate(ms * NSEC_PER_MSEC));
		WRITE_ONCE(hmpgov_settings.halflife_ns, ms * NSEC_PER_MSEC);
		break;
	case T_SMALL_DOWN:
	case T_SMALL_UP:
	case T_BIG_DOWN:
	case T_BIG_UP:
		snapshot(v);
		thresholds_of(v, &t);
		hmpgov_thresholds_set(&t);
		break;
	case T_CLASS_HOLD:
		WRITE_ONCE(hmpgov_settings.class_hold_ns, ms * NSEC_PER_MSEC);
		break;
	case T_MOVE_INTERVAL:
		WRITE_ONCE(hmpgov_settings.move_interval_ns, ms * NSEC_PER_MSEC);
		break;
	case T_PACK_LIMIT:
		WRITE_ONCE(hmpgov_settings.pack_limit, tunables[id].value);
		break;
	case T_SHOW_BASE:
		WRITE_ONCE(hmpgov_settings.show_base, tunables[id].value);
		break;
	default:
		break;		/* load-time only */
	}
}

/**
 * hmpgov_tunables_load() - check every tunable's parameter and publish it
 *
 * Return: 0, or -EINVAL after logging one line.
 */
int hmpgov_tunables_load(void)
{
	unsigned int v[NR_TUNABLES], i;

	for (i = 0; i < NR_TUNABLES; i++)
		if (check_range(i, tunables[i].name, tunables[i].value, true))
			return -EINVAL;
	if (min_interval_given) {
		if (tunables[T_CLASS_HOLD].given ||
		    tunables[T_MOVE_INTERVAL].given) {
			pr_err("min_interval_ms=: the old name of class_hold_ms= and move_interval_ms= together; give one or the other\n");
			return -EINVAL;
		}
		if (check_range(T_MOVE_INTERVAL, "min_interval_ms",
				min_interval_ms, true))
			return -EINVAL;
		tunables[T_CLASS_HOLD].value = min_interval_ms;
		tunables[T_MOVE_INTERVAL].value = min_interval_ms;
	}
	snapshot(v);
	if (cross_check(v, true))
		return -EINVAL;
	for (i = 0; i < NR_TUNABLES; i++)
		publish(i);
	return 0;
}

unsigned int hmpgov_tunable_max_tasks(void)
{
	return tunables[T_MAX_TASKS].value;
}

/* ---- Knobs --------------------------------------------------------- */

static struct kobj_attribute knob_attr[NR_TUNABLES];

static enum tunable_id knob_id(struct kobj_attribute *attr)
{
	return attr - knob_attr;
}

static ssize_t knob_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(tunables[knob_id(attr)].value));
}

/*
 * Set @ids (one, or the old name's two) to the number in @buf; @name: the
 * file written. 0 or -EINVAL.
 */
static int knob_set(const char *name, const enum tunable_id *ids,
		    unsigned int nr, const char *buf)
{
	unsigned int candidate[NR_TUNABLES], i;
	bool kick = false;
	long long v;
	int ret = -EINVAL;

	if (kstrtoll(buf, 10, &v)) {
		pr_warn_ratelimited("%s: '%.*s' is not a number; unchanged\n",
				    name, (int)strcspn(buf, "\n"), buf);
		return -EINVAL;
	}
	for (i = 0; i < nr; i++)
		if (check_range(ids[i], name, v, false))
			return -EINVAL;
	mutex_lock(&tunables_lock);
	snapshot(candidate);
	for (i = 0; i < nr; i++)
		candidate[ids[i]] = v;
	if (!cross_check(candidate, false)) {
		for (i = 0; i < nr; i++) {
			WRITE_ONCE(tunables[ids[i]].value, v);
			publish(ids[i]);
			kick |= tunables[ids[i]].flags & KICK;
		}
		ret = 0;
	}
	mutex_unlock(&tunables_lock);
	if (kick)
		hmpgov_steer_kick();
	return ret;
}

static ssize_t knob_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	enum tunable_id id = knob_id(attr);
	int ret = knob_set(tunables[id].name, &id, 1, buf);

	return ret ? ret : count;
}

static ssize_t alias_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(tunables[T_MOVE_INTERVAL].value));
}

static ssize_t alias_store(struct kobject *kobj, struct kobj_attribute *attr,
			   const char *buf, size_t count)
{
	static const enum tunable_id both[] = { T_CLASS_HOLD, T_MOVE_INTERVAL };
	int ret = knob_set("min_interval_ms", both, ARRAY_SIZE(both), buf);

	return ret ? ret : count;
}

static struct kobj_attribute alias_attr =
	__ATTR(min_interval_ms, 0644, alias_show, alias_store);

/* The knobs, and the alias; NULL-terminated. */
static struct attribute *knob_attrs[NR_TUNABLES + 2];

static const struct attribute_group knob_group = {
	.attrs = knob_attrs,
};

int hmpgov_tunables_sysfs_init(struct kobject *root)
{
	unsigned int i, n = 0;

	for (i = 0; i < NR_TUNABLES; i++) {
		if (!(tunables[i].flags & KNOB))
			continue;
		sysfs_attr_init(&knob_attr[i].attr);
		knob_attr[i].attr.name = tunables[i].name;
		knob_attr[i].attr.mode = 0644;
		knob_attr[i].show = knob_show;
		knob_attr[i].store = knob_store;
		knob_attrs[n++] = &knob_attr[i].attr;
	}
	knob_attrs[n++] = &alias_attr.attr;
	knob_attrs[n] = NULL;
	return sysfs_create_group(root, &knob_group);
}

void hmpgov_tunables_sysfs_exit(struct kobject *root)
{
	sysfs_remove_group(root, &knob_group);
}
