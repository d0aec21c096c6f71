/* SPDX-License-Identifier: MIT */
/* kjail-entry: the first program in every jail (see entry/core.c). */
#include "config.h"
#include "entry/entry.h"

#include <string.h>

int main(int argc, char **argv)
{
	extern char *program_invocation_short_name;
	set_fatal_status(KJ_EXIT_FAIL);
	/* the user asked kjail for this command: errors speak as kjail */
	const char *name = program_invocation_short_name;
	program_invocation_short_name = (char *)"kjail";
	jail_entry_if_asked(argc, argv);
	program_invocation_short_name = (char *)name;
	die("this is kjail's entry helper, started by kjail inside a jail: run kjail instead");
}
