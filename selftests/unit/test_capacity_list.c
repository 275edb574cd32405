// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of the capacity= parser (module/capacity_list.c). */
#include <string.h>

#include "hmpgov/capacity_list.h"
#include "tap.h"

static u32 out[8];
static char msg[HMPGOV_PARSE_MSG_LEN];

static int parse(const char *s, unsigned int n)
{
	memset(out, 0xab, sizeof(out));
	msg[0] = '\0';
	return hmpgov_parse_capacity_list(s, out, n, msg);
}

static void test_good(void)
{
	TAP_CHECK(parse("446,446,1024,1024", 4) == 0 && out[0] == 446 &&
		  out[1] == 446 && out[2] == 1024 && out[3] == 1024,
		  "four values parse");
	TAP_CHECK(parse("1", 1) == 0 && out[0] == 1, "one CPU, minimum value 1");
	TAP_CHECK(parse("0001024,7", 2) == 0 && out[0] == 1024 && out[1] == 7,
		  "leading zeros are fine");
}

static void test_refused(const char *s, unsigned int n, const char *want,
			 const char *what)
{
	int ret = parse(s, n);

	TAP_CHECK(ret == -EINVAL && strstr(msg, want) &&
		  out[0] == 0xabababab,
		  "%s: refused, nothing written, message '%s'", what, msg);
}

int main(void)
{
	test_good();
	test_refused("446,1024", 4, "expects 4 values (one per possible CPU), got 2",
		     "too few");
	test_refused("1,2,3,4,5", 4, "expects 4 values", "too many");
	test_refused("", 2, "got 0", "empty");
	test_refused("446,abc", 2, "value 1 ('abc') is not a number", "word");
	test_refused("446,,1024", 3, "value 1 ('') is not a number", "empty field");
	test_refused("446,1024,", 3, "value 2 ('') is not a number", "trailing comma");
	test_refused("-5,1024", 2, "value 0 ('-5') is not a number", "negative");
	test_refused("+5,1024", 2, "value 0 ('+5') is not a number", "plus sign");
	test_refused("44 6,1024", 2, "value 0 ('44 6') is not a number", "space");
	test_refused("12x,1024", 2, "value 0 ('12x') is not a number", "trailing junk");
	test_refused("0,1024", 2, "value 0 (0) is out of range 1..1024", "zero");
	test_refused("1024,1025", 2, "value 1 (1025) is out of range 1..1024",
		     "over 1024");
	test_refused("1024,99999999999999999999", 2,
		     "value 1 (999999999999999) is out of range", "overflowing digits");
	return tap_done();
}
