/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsing of the capacity= module parameter: a comma-separated list of
 * one capacity per possible CPU, each 1..1024. Pure C.
 */
#ifndef HMPGOV_CAPACITY_LIST_H
#define HMPGOV_CAPACITY_LIST_H

#include "pure.h"

/* Room for a message naming the parameter, the value and the problem. */
#define HMPGOV_PARSE_MSG_LEN	128

/**
 * hmpgov_parse_capacity_list() - parse "v0,v1,...,vN-1"
 * @s:     the parameter's text (not modified)
 * @out:   receives @n capacities on success
 * @n:     the number of possible CPUs: exactly this many values are needed
 * @msg:   receives a one-line reason on failure (HMPGOV_PARSE_MSG_LEN)
 *
 * Return: 0 on success, -EINVAL with @msg filled otherwise. @out is
 * written only on success.
 */
int hmpgov_parse_capacity_list(const char *s, u32 *out, unsigned int n,
			       char *msg);

#endif /* HMPGOV_CAPACITY_LIST_H */
