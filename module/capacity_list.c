// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing of the capacity= module parameter. Pure C: also built into the
 * host unit tests (selftests/unit/).
 *
 * The accepted form is strict: decimal digits separated by single commas,
 * one value per possible CPU, each within 1..1024. Anything else is
 * refused with a message that says which value is wrong and why, because
 * a capacity map that is silently half-applied would misplace every task.
 */
#include "hmpgov/capacity_list.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Count the comma-separated fields of @s (an empty string has none). */
static unsigned int count_fields(const char *s)
{
	unsigned int fields = 1;

	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s == ',')
			fields++;
	return fields;
}

/*
 * Parse one field ending at ',' or NUL. Values are capped while reading so
 * that a long run of digits cannot overflow.
 */
static int parse_field(const char **pos, u32 *val)
{
	const char *p = *pos;
	u32 v = 0;

	if (!is_digit(*p))
		return -EINVAL;
	for (; is_digit(*p); p++) {
		v = v * 10 + (u32)(*p - '0');
		if (v > HMPGOV_CAPACITY_SCALE)
			v = HMPGOV_CAPACITY_SCALE + 1;
	}
	if (*p != ',' && *p != '\0')
		return -EINVAL;
	*val = v;
	*pos = p;
	return 0;
}

/* Copy the field at @p (up to ',' or NUL, at most 15 chars) into @buf. */
static void field_text(const char *p, char *buf, unsigned int len)
{
	unsigned int i;

	for (i = 0; i + 1 < len && p[i] && p[i] != ','; i++)
		buf[i] = p[i];
	buf[i] = '\0';
}

int hmpgov_parse_capacity_list(const char *s, u32 *out, unsigned int n,
			       char *msg)
{
	unsigned int fields = count_fields(s), i;
	const char *p = s;
	char text[16];
	u32 v;

	if (fields != n) {
		snprintf(msg, HMPGOV_PARSE_MSG_LEN,
			 "capacity=: expects %u values (one per possible CPU), got %u",
			 n, fields);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		field_text(p, text, sizeof(text));
		if (parse_field(&p, &v)) {
			snprintf(msg, HMPGOV_PARSE_MSG_LEN,
				 "capacity=: value %u ('%s') is not a number",
				 i, text);
			return -EINVAL;
		}
		if (v == 0 || v > HMPGOV_CAPACITY_SCALE) {
			snprintf(msg, HMPGOV_PARSE_MSG_LEN,
				 "capacity=: value %u (%s) is out of range 1..%u",
				 i, text, HMPGOV_CAPACITY_SCALE);
			return -EINVAL;
		}
		if (*p == ',')
			p++;
	}
	/* Only now that every value is valid: nothing half-applied. */
	p = s;
	for (i = 0; i < n; i++) {
		parse_field(&p, &out[i]);
		if (*p == ',')
			p++;
	}
	return 0;
}
