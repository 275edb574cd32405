// SPDX-License-Identifier: GPL-2.0
/*
 * The settings every part of hmpgov reads (struct hmpgov_settings), and
 * the mode knob in /sys/kernel/hmpgov:
 *
 *   mode             off | observe | steer
 *
 * The numeric knobs (thresholds, half-life, intervals, pack_limit) come
 * from the table in tunables.c. The four thresholds live in one u64 so
 * that a probe always reads a consistent set.
 */
#include <linux/kobject.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hmpgov/hmpgov.h"
#include "hmpgov/steer.h"

struct hmpgov_settings hmpgov_settings;

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

static struct kobj_attribute mode_attr = __ATTR_RW(mode);

static struct attribute *knob_attrs[] = {
	&mode_attr.attr,
	NULL,
};

static const struct attribute_group knob_group = {
	.attrs = knob_attrs,
};

int hmpgov_knobs_init(struct kobject *root)
{
	int ret = sysfs_create_group(root, &knob_group);

	if (ret)
		return ret;
	ret = hmpgov_tunables_sysfs_init(root);
	if (ret)
		sysfs_remove_group(root, &knob_group);
	return ret;
}

void hmpgov_knobs_exit(struct kobject *root)
{
	hmpgov_tunables_sysfs_exit(root);
	sysfs_remove_group(root, &knob_group);
}
