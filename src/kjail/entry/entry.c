/* SPDX-License-Identifier: MIT */
/* kjail-entry: the first program in every jail (see entry/core.c). */
#include "config.h"
#include "entry/connect.h"
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
	/* ssh's ProxyCommand in a jail with kjail's proxy (entry/connect.h) */
	if (argc >= 2 && strcmp(argv[1], "--connect") == 0) {
		if (argc != 4)
			die("usage: kjail-entry --connect HOST PORT (ssh's ProxyCommand in a jail)");
		entry_connect(argv[2], argv[3]);
	}
	program_invocation_short_name = (char *)name;
	die("this is kjail's entry helper, started by kjail inside a jail: run kjail instead");
}
