// SPDX-License-Identifier: GPL-2.0
/*
 * The steering settings and their runtime knobs in /sys/kernel/hmpgov:
 *
 *   mode             off | observe | steer
 *   small_down, small_up, big_down, big_up
 *                    class thresholds, 0..1024 utilization; together they
 *                    must keep 1 <= small_down < small_up <= big_down <
 *                    big_up <= 1024
 *   min_interval_ms  least time between two moves of one task (0..1000)
 *   pack_limit       share (/1024, 1..1024) of a little CPU's capacity the
 *                    packed small tasks may use before the next one joins
 *
 * A write that is not a number, out of range, or would break the order
 * of the thresholds gets -EINVAL and changes nothing. The four thresholds
 * live in one u64 so that a probe always reads a consistent set.
 */
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hmpgov/hmpgov.h"
#include "hmpgov/steer.h"

struct hmpgov_settings hmpgov_settings;
static DEFINE_MUTEX(knobs_lock);

void hmpgov_thresholds_get(struct hmpgov_thresholds *t)
{
	u64 v = READ_ONCE(hmpgov_settings.thresholds);

	t->small_down = (u16)v;
	t->small_up = (u16)(v >> 16);
	t->big_down = (u16)(v >> 32);
	t->big_up = (u16)(v >> 48);
}

void hmpgov_thresholds_set(const struct hmpgov_thresholds *t)
{
	WRITE_ONCE(hmpgov_settings.thresholds,
		   (u64)t->small_down | (u64)t->small_up << 16 |
		   (u64)t->big_down << 32 | (u64)t->big_up << 48);
}

static ssize_t mode_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  hmpgov_mode_names[READ_ONCE(hmpgov_settings.mode)]);
}

static ssize_t mode_store(struct kobject *kobj, struct kobj_attribute *attr,
			  const char *buf, size_t count)
{
	int mode = sysfs_match_string(hmpgov_mode_names, buf);
	int ret;

	if (mode < 0)
		return -EINVAL;
	ret = hmpgov_steer_set_mode(mode);
	return ret ? ret : count;
}

/* One threshold attribute: which field of struct hmpgov_thresholds. */
struct threshold_attr {
	struct kobj_attribute attr;
	size_t offset;
};

static u32 *field(struct hmpgov_thresholds *t, struct kobj_attribute *attr)
{
	struct threshold_attr *ta = container_of(attr, struct threshold_attr, attr);

	return (u32 *)((char *)t + ta->offset);
}

static ssize_t threshold_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct hmpgov_thresholds t;

	hmpgov_thresholds_get(&t);
	return sysfs_emit(buf, "%u\n", *field(&t, attr));
}

static ssize_t threshold_store(struct kobject *kobj,
			       struct kobj_attribute *attr, const char *buf,
			       size_t count)
{
	struct hmpgov_thresholds t;
	unsigned int v;
	int ret = -EINVAL;

	if (kstrtouint(buf, 10, &v) || v > HMPGOV_CAPACITY_SCALE)
		return -EINVAL;
	mutex_lock(&knobs_lock);
	hmpgov_thresholds_get(&t);
	*field(&t, attr) = v;
	if (!hmpgov_thresholds_check(&t)) {
		hmpgov_thresholds_set(&t);
		ret = count;
	}
	mutex_unlock(&knobs_lock);
	return ret;
}

static struct threshold_attr small_down_attr = {
	.attr = __ATTR(small_down, 0644, threshold_show, threshold_store),
	.offset = offsetof(struct hmpgov_thresholds, small_down),
};

static struct threshold_attr small_up_attr = {
	.attr = __ATTR(small_up, 0644, threshold_show, threshold_store),
	.offset = offsetof(struct hmpgov_thresholds, small_up),
};

static struct threshold_attr big_down_attr = {
	.attr = __ATTR(big_down, 0644, threshold_show, threshold_store),
	.offset = offsetof(struct hmpgov_thresholds, big_down),
};

static struct threshold_attr big_up_attr = {
	.attr = __ATTR(big_up, 0644, threshold_show, threshold_store),
	.offset = offsetof(struct hmpgov_thresholds, big_up),
};

static ssize_t min_interval_ms_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(hmpgov_settings.min_interval_ns) / 1000000);
}

static ssize_t min_interval_ms_store(struct kobject *kobj,
				     struct kobj_attribute *attr,
				     const char *buf, size_t count)
{
	unsigned int ms;

	if (kstrtouint(buf, 10, &ms) || hmpgov_min_interval_ms_valid(ms))
		return -EINVAL;
	WRITE_ONCE(hmpgov_settings.min_interval_ns, ms * 1000000);
	return count;
}

static ssize_t pack_limit_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(hmpgov_settings.pack_limit));
}

static ssize_t pack_limit_store(struct kobject *kobj,
				struct kobj_attribute *attr, const char *buf,
				size_t count)
{
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || hmpgov_pack_limit_valid(v))
		return -EINVAL;
	WRITE_ONCE(hmpgov_settings.pack_limit, v);
	hmpgov_steer_kick();
	return count;
}

static struct kobj_attribute mode_attr = __ATTR_RW(mode);
static struct kobj_attribute min_interval_ms_attr = __ATTR_RW(min_interval_ms);
static struct kobj_attribute pack_limit_attr = __ATTR_RW(pack_limit);

static struct attribute *knob_attrs[] = {
	&mode_attr.attr,
	&small_down_attr.attr.attr,
	&small_up_attr.attr.attr,
	&big_down_attr.attr.attr,
	&big_up_attr.attr.attr,
	&min_interval_ms_attr.attr,
	&pack_limit_attr.attr,
	NULL,
};

static const struct attribute_group knob_group = {
	.attrs = knob_attrs,
};

int hmpgov_knobs_init(struct kobject *root)
{
	return sysfs_create_group(root, &knob_group);
}

void hmpgov_knobs_exit(struct kobject *root)
{
	sysfs_remove_group(root, &knob_group);
}
