/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hmpgov's module-wide state, shared by its kernel-side files.
 */
#ifndef HMPGOV_H
#define HMPGOV_H

#include <linux/percpu.h>
#include <linux/types.h>

#include "hmpgov/classify.h"

enum hmpgov_capacity_source {
	HMPGOV_CAP_NONE,	/* nothing usable: all CPUs taken as 1024 */
	HMPGOV_CAP_KERNEL,	/* arch_scale_cpu_capacity() */
	HMPGOV_CAP_DT,		/* capacity-dmips-mhz in the device tree */
	HMPGOV_CAP_CPUFREQ,	/* cpufreq's maximum frequency per policy */
	HMPGOV_CAP_PARAM,	/* the capacity= module parameter */
	HMPGOV_CAP_AUTO,	/* (capacity_source= only) the first usable */
};

enum hmpgov_cluster_source {
	HMPGOV_CLUSTER_TOPOLOGY,	/* the kernel's cluster / package ids */
	HMPGOV_CLUSTER_CPUFREQ,		/* cpufreq policies' related_cpus */
	HMPGOV_CLUSTER_CAPACITY,	/* CPUs of equal capacity */
};

/*
 * What discovery found; written once at load, read-only afterwards.
 * Arrays are indexed by CPU id (the possible CPUs are 0..nr_cpus-1).
 */
struct hmpgov_topology {
	unsigned int nr_cpus;
	u32 *capacity;
	int *cluster;
	unsigned int nr_clusters;
	enum hmpgov_capacity_source capacity_source;
	enum hmpgov_cluster_source cluster_source;
	bool asymmetric;	/* false: passive, nothing to steer */
	/*
	 * The capacities the kernel itself places by (0: a module cannot
	 * read them), and whether they differ: then the kernel's wake-up
	 * placement, misfit migration and schedutil act on uclamp.
	 */
	u32 *kernel_capacity;
	bool kernel_asymmetric;
};

extern struct hmpgov_topology hmpgov_topo;

/* Frequency ratio scale: cur/max of 1024 is the top frequency. */
#define HMPGOV_FREQ_SCALE	1024U

/* Probe events seen, per CPU (debugfs stats). */
struct hmpgov_events {
	u64 sched_switch;
	u64 runtime;
	u64 fork;
	u64 free;
	u64 frequency;
};
DECLARE_PER_CPU(struct hmpgov_events, hmpgov_events);

/* A tracepoint found by name and the probe to attach to it. */
struct hmpgov_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
};

/* module/params.c */
extern const char *const hmpgov_capacity_source_names[];
extern const char *const hmpgov_cluster_source_names[];
/* The parameters that are not numeric tunables (tunables.c has those). */
struct hmpgov_load_params {
	u32 *capacity_override;	/* kmalloc'ed, or NULL */
	enum hmpgov_capacity_source want;
	int mode;			/* enum hmpgov_mode */
	int steer;			/* enum hmpgov_steer, as asked */
};

int hmpgov_params_validate(struct hmpgov_load_params *lp);

/* module/tracepoints.c */
int hmpgov_probes_attach(struct hmpgov_probe *probes, unsigned int nr);
void hmpgov_probes_detach(struct hmpgov_probe *probes, unsigned int nr);

/* module/freq.c */
int hmpgov_freq_init(void);
void hmpgov_freq_exit(void);
u32 hmpgov_freq_ratio(int cpu);
void hmpgov_freq_changed(unsigned int khz, unsigned int cpu);

/* module/tracking.c */
int hmpgov_tracking_start(void);
void hmpgov_tracking_stop(void);

/* module/debugfs.c */
void hmpgov_debugfs_init(void);
void hmpgov_debugfs_exit(void);

/* module/topology.c */
int hmpgov_topology_discover(struct hmpgov_topology *t, const u32 *override,
			     enum hmpgov_capacity_source want);
void hmpgov_topology_log(const struct hmpgov_topology *t);
void hmpgov_topology_free(struct hmpgov_topology *t);

/* module/sysfs.c */
int hmpgov_sysfs_init(void);
void hmpgov_sysfs_exit(void);

/* Whether hmpgov may steer this machine at all. */
bool hmpgov_steerable_machine(const struct hmpgov_topology *t);

#endif /* HMPGOV_H */
