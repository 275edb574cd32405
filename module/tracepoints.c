// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching probes to the kernel's tracepoints by name.
 *
 * The scheduler's trace events are not exported to modules
 * (__tracepoint_sched_switch does not link), but every built-in
 * tracepoint can be found with for_each_kernel_tracepoint() and given a
 * probe with tracepoint_probe_register(). Detaching is unregister, then
 * tracepoint_synchronize_unregister(): after it no CPU runs a probe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/string.h>
#include <linux/tracepoint.h>

#include "hmpgov/hmpgov.h"

struct lookup {
	struct hmpgov_probe *probes;
	unsigned int nr;
};

static void match_tracepoint(struct tracepoint *tp, void *priv)
{
	struct lookup *l = priv;
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(tp->name, l->probes[i].name))
			l->probes[i].tp = tp;
}

/**
 * hmpgov_probes_attach() - find and register a set of probes
 * @probes: the set; .tp is filled in
 * @nr:     its size
 *
 * All or nothing: on failure, what was attached is detached again.
 * Return: 0, -ENOENT if a tracepoint does not exist, or the error of
 * tracepoint_probe_register().
 */
int hmpgov_probes_attach(struct hmpgov_probe *probes, unsigned int nr)
{
	struct lookup l = { .probes = probes, .nr = nr };
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++)
		probes[i].tp = NULL;
	for_each_kernel_tracepoint(match_tracepoint, &l);
	for (i = 0; i < nr; i++) {
		if (!probes[i].tp) {
			pr_err("tracepoint %s not found in this kernel\n",
			       probes[i].name);
			ret = -ENOENT;
			goto undo;
		}
		ret = tracepoint_probe_register(probes[i].tp, probes[i].func,
						NULL);
		if (ret) {
			pr_err("cannot attach to tracepoint %s: %d\n",
			       probes[i].name, ret);
			goto undo;
		}
	}
	return 0;
undo:
	hmpgov_probes_detach(probes, i);
	return ret;
}

/* Detach the first @nr probes and wait until none of them runs. */
void hmpgov_probes_detach(struct hmpgov_probe *probes, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		tracepoint_probe_unregister(probes[i].tp, probes[i].func, NULL);
	tracepoint_synchronize_unregister();
}
