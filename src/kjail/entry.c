/* kjail-entry: the first program in every jail (see entry_core.c). */
#include "config.h"
#include "entry.h"

#include <string.h>

int main(int argc, char **argv)
{
	extern char *program_invocation_short_name;
	set_fatal_status(KJ_EXIT_FAIL);
	if (argc >= 3 && str_has_prefix(argv[1], "--jail-entry=") && strcmp(argv[2], "--") == 0)
	{
		/* the user asked kjail for this command: errors speak as kjail */
		program_invocation_short_name = (char *)"kjail";
		jail_entry(argv[1] + strlen("--jail-entry="), argv + 3);
	}
	die("this is kjail's entry helper, started by kjail inside a jail: run kjail instead");
}
