/* kli: the command line. Parses flags, finds the config files, and hands
 * the run grant to the report, the check, or (later) the agent. */
#include "config.h"
#include "authority.h"
#include "report.h"
#include "settings.h"
#include "util.h"

#include <getopt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	OPT_PRINT_AUTHORITY = 256,
	OPT_CHECK,
	OPT_PROFILE,
	OPT_READ_ONLY,
	OPT_NO_BASH,
	OPT_JSON,
};

struct cli {
	bool print_authority, json, read_only, no_bash;
	const char *check_atom, *check_object, *profile;
	int nargs;   /* other operands: the agent's, once there is one */
};

static void usage(FILE *out)
{
	fputs("Usage: kli --print-authority [--profile NAME] [--read-only] [--no-bash] [--json]\n"
	      "       kli --check ATOM [OBJECT] [--profile NAME] [--read-only] [--no-bash]\n"
	      "       kli -h | --help | -V | --version\n"
	      "\n"
	      "Report or test the authority (capabilities) a kli run would hold.\n"
	      "\n"
	      "      --print-authority  print the run grant and exit\n"
	      "      --json             with --print-authority: one line of JSON\n"
	      "      --check ATOM [OBJECT]\n"
	      "                         print 'allowed' (exit 0) or 'denied: REASON' (exit 1)\n"
	      "      --profile NAME     narrow by profile NAME (built in: print, headless,\n"
	      "                         interactive); default: [kli] profile, else print\n"
	      "                         for --print-authority and interactive otherwise\n"
	      "      --read-only        drop file/write, file/edit and process/exec\n"
	      "      --no-bash          drop process/exec\n"
	      "  -h, --help             show this help\n"
	      "  -V, --version          show the version\n"
	      "\n"
	      "Config: " KLI_SYSTEM_CONFIG ", $XDG_CONFIG_HOME/kli/config.ini,\n"
	      "then the nearest .kli/config.ini up to the git root (which only narrows).\n"
	      "Exit status: 0 done or allowed, 1 denied, 2 usage or config error.\n"
	      "See kli(1).\n", out);
}

/* argv text inside a one-line message. */
static const char *printable(const char *s)
{
	static char buf[80]; /* main.c only; one message at a time */
	size_t o = 0;
	for (; *s && o < sizeof buf - 4; s++)
		buf[o++] = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
	strcpy(buf + o, *s ? "..." : "");
	return buf;
}

KJ_NORETURN KJ_PRINTF(1, 2) static void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	_cleanup_free_ char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	die("%s (see 'kli --help')", msg);
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("-_.", *s)))
			return false;
	return true;
}

static void bad_option(int c, int optopt_seen, const char *arg)
{
	if (c == ':')
		usage_error("option '%s' needs an argument", printable(arg));
	if (optopt_seen >= OPT_PRINT_AUTHORITY)
		usage_error("option '%s' does not take an argument", printable(arg));
	if (optopt_seen)
		usage_error("unknown option '-%c'", optopt_seen);
	usage_error("unknown option '%s'", printable(arg));
}

static void parse_cli(int argc, char **argv, struct cli *cli)
{
	static const struct option longopts[] = {
		{ "print-authority", no_argument, NULL, OPT_PRINT_AUTHORITY },
		{ "check", required_argument, NULL, OPT_CHECK },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "read-only", no_argument, NULL, OPT_READ_ONLY },
		{ "no-bash", no_argument, NULL, OPT_NO_BASH },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	opterr = 0; /* our own one-line messages */
	for (;;) {
		/* '+': stop at the first operand, so a prompt is never taken for flags. */
		int c = getopt_long(argc, argv, "+:hV", longopts, NULL);
		if (c == -1) {
			/* --check ATOM OBJECT --flags: take OBJECT, then go on parsing,
			 * unless "--" ended the flags (for an OBJECT like "-rf"). */
			bool ended = strcmp(argv[optind - 1], "--") == 0;
			if (cli->check_atom && !cli->check_object && optind < argc) {
				cli->check_object = argv[optind++];
				if (!ended)
					continue;
			}
			break;
		}
		switch (c) {
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("kli %s\n", PACKAGE_VERSION);
			exit(0);
		case OPT_PRINT_AUTHORITY:
			cli->print_authority = true;
			break;
		case OPT_CHECK:
			if (cli->check_atom)
				usage_error("--check given twice");
			cli->check_atom = optarg;
			break;
		case OPT_PROFILE:
			if (!valid_name(optarg))
				usage_error("--profile: '%s' is not a profile name", printable(optarg));
			cli->profile = optarg;
			break;
		case OPT_READ_ONLY:
			cli->read_only = true;
			break;
		case OPT_NO_BASH:
			cli->no_bash = true;
			break;
		case OPT_JSON:
			cli->json = true;
			break;
		default:
			bad_option(c, optopt, argv[optind - 1]);
		}
	}
	cli->nargs = argc - optind;
	if (cli->print_authority && cli->check_atom)
		usage_error("--print-authority and --check do not go together");
	if (cli->json && !cli->print_authority)
		usage_error("--json goes with --print-authority");
	if ((cli->print_authority || cli->check_atom) && cli->nargs > 0)
		usage_error("unexpected operand '%s'", printable(argv[optind]));
}

static char *home_dir(void)
{
	const char *h = getenv("HOME");
	if (h && h[0] == '/')
		return xstrdup(h);
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? xstrdup(pw->pw_dir) : NULL;
}

static void finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		die_errno("cannot write to standard output");
}

static int run_check(const struct cli *cli, const struct kli_settings *s,
		     const struct auth_ctx *ctx)
{
	_cleanup_free_ char *reason = NULL;
	enum check_result r = grant_check(s->grant, cli->check_atom, cli->check_object, ctx,
					  &reason);
	if (r == CHECK_BAD_ATOM)
		usage_error("--check: %s", reason);
	if (r == CHECK_ALLOWED)
		puts("allowed");
	else
		printf("denied: %s\n", reason);
	finish_stdout();
	return r == CHECK_ALLOWED ? 0 : 1;
}

int main(int argc, char **argv)
{
	set_fatal_status(2);
	struct cli cli = { 0 };
	parse_cli(argc, argv, &cli);

	_cleanup_free_ char *workspace = getcwd(NULL, 0);
	if (!workspace)
		die_errno("cannot find the workspace (the current directory)");
	_cleanup_free_ char *home = home_dir();
	_cleanup_free_ char *user = settings_user_config(getenv("XDG_CONFIG_HOME"), home);
	_cleanup_free_ char *git_root = settings_git_root(workspace);
	_cleanup_free_ char *project = settings_project_config(workspace, git_root);
	const struct kli_files files = { KLI_SYSTEM_CONFIG, user, project };
	const struct kli_options opts = {
		.profile = cli.profile,
		.default_profile = cli.print_authority ? KLI_PROFILE_PRINT : KLI_PROFILE_INTERACTIVE,
		.read_only = cli.read_only,
		.no_bash = cli.no_bash,
	};
	const struct auth_ctx ctx = { .workspace = workspace, .home = home, .resolve = NULL };

	struct kli_settings s;
	char err[1024];
	if (!settings_load(&files, &opts, &ctx, &s, err, sizeof err))
		die("%s", err);

	int status = 0;
	if (cli.print_authority) {
		_cleanup_free_ char *out = cli.json
			? report_json(s.grant, s.profile, s.sources, s.nsources)
			: report_text(s.grant);
		fputs(out, stdout);
		finish_stdout();
	} else if (cli.check_atom) {
		status = run_check(&cli, &s, &ctx);
	} else {
		settings_clear(&s);
		die("the agent is not built yet: this kli answers --print-authority and --check");
	}
	settings_clear(&s);
	return status;
}
