/* SPDX-License-Identifier: MIT */
/* kli: the command line. Parses flags, finds the config files, and hands
 * the run grant to the report, the check, or the agent (headless with -p,
 * else an interactive session). */
#include "config.h"
#include "agent/agent.h"
#include "authority/authority.h"
#include "authority/grant.h"
#include "agent/barrier.h"
#include "agent/cancel.h"
#include "agent/events.h"
#include "agent/instructions.h"
#include "containment/gate.h"
#include "authority/mediate.h"
#include "authority/exclude.h"
#include "model/chat.h"
#include "model/client.h"
#include "model/key.h"
#include "authority/report.h"
#include "agent/session.h"
#include "agent/store.h"
#include "agent/term.h"
#include "settings/settings.h"
#include "agent/shutdown.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

extern char **environ;

enum {
	OPT_PRINT_AUTHORITY = 256,
	OPT_CHECK,
	OPT_PROFILE,
	OPT_READ_ONLY,
	OPT_NO_BASH,
	OPT_JSON,
	OPT_MAX_TURNS,
	OPT_JAIL_POLICY,
	OPT_CHECK_CONTAINMENT,
	OPT_BASELINE,
	OPT_SYSTEM_CONFIG,
	OPT_QUIET,
	OPT_SESSIONS,
	OPT_RESUME,
};

#define DEFAULT_MAX_TURNS 50L
#define DEFAULT_BASH_TIMEOUT 120L

struct cli {
	bool print_authority, json, read_only, no_bash, quiet;
	const char *check_atom, *check_object, *profile;
	const char *prompt;   /* -p */
	long max_turns;       /* 0: not given */
	int nargs;            /* operands: always an error */
	bool check_containment;
	const char *jail_policy, *baseline; /* gate.h */
	const char *system_config; /* NULL: KLI_SYSTEM_CONFIG */
	struct strbuf overrides;   /* -m and -c as INI text (settings.h) */
	bool sessions, resume;     /* --sessions, --resume [ID] (store.h) */
	const char *resume_id;
};

static void usage(FILE *out)
{
	fputs("Usage: kli [-p PROMPT] [-q] [-m MODEL] [-c KEY=VALUE] [--json] [--max-turns N] [--profile NAME] [--read-only]\n"
	      "           [--no-bash] [--resume [ID]]\n"
	      "       kli --sessions\n"
	      "       kli --print-authority [--profile NAME] [--read-only] [--no-bash] [--json]\n"
	      "       kli --check ATOM [OBJECT] [--profile NAME] [--read-only] [--no-bash]\n"
	      "       kli --check-containment [--jail-policy FILE] [--baseline FILE]\n"
	      "           [--profile NAME] [--read-only] [--no-bash]\n"
	      "       kli -h | --help | -V | --version\n"
	      "\n"
	      "A coding agent whose every tool call is checked against the authority\n"
	      "(capabilities) the run holds. Without -p: an interactive session on stdin,\n"
	      "where Ctrl-C cancels the turn under way (twice in a row: exit).\n"
	      "\n"
	      "  -p, --prompt PROMPT    run one task headless and print the final answer\n"
	      "                         (PROMPT '-': read it from standard input)\n"
	      "      --max-turns N      stop after N model turns (default 50)\n"
	      "      --resume [ID]      continue saved session ID (default: the newest for\n"
	      "                         this workspace); it carries no authority\n"
	      "      --sessions         list the saved sessions (id, time, workspace, prompt)\n"
	      "  -q, --quiet            no line per tool call (nor diff) on stderr\n"
	      "  -m, --model MODEL      the model to ask ([model] model)\n"
	      "  -c, --config SECTION.KEY=VALUE\n"
	      "                         set a config key, checked as in the file, after the\n"
	      "                         user config (origin \"command line\"); repeatable\n"
	      "      --print-authority  print the run grant and exit\n"
	      "      --json             with --print-authority: one line of JSON; with an\n"
	      "                         agent run: one JSON event per line on stdout\n"
	      "      --check ATOM [OBJECT]\n"
	      "                         print 'allowed' (exit 0) or 'denied: REASON' (exit 1)\n"
	      "      --jail-policy FILE with --print-authority or --check-containment: the\n"
	      "                         jail's policy document, as kjail describes it\n"
	      "                         (see kli(1)); default: $KJAIL_POLICY inside kjail\n"
	      "      --check-containment\n"
	      "                         exit 1 with one line per grant the jail cannot\n"
	      "                         honour (and per drift from --baseline), else 0\n"
	      "      --baseline FILE    with --check-containment: a saved\n"
	      "                         kli --print-authority --json; report what widened\n"
	      "      --profile NAME     narrow by profile NAME (built in: print, headless,\n"
	      "                         interactive); default: [kli] profile, else print\n"
	      "                         for --print-authority and interactive otherwise\n"
	      "      --system-config FILE  read FILE (absolute) as the system config, the\n"
	      "                         lowest layer, instead of " KLI_SYSTEM_CONFIG "\n"
	      "      --read-only        drop file/write, file/edit and process/exec\n"
	      "      --no-bash          drop process/exec\n"
	      "  -h, --help             show this help\n"
	      "  -V, --version          show the version\n"
	      "\n"
	      "Config: " KLI_SYSTEM_CONFIG ", $XDG_CONFIG_HOME/kli/config.ini,\n"
	      "then the nearest .kli/config.ini up to the git root (which only narrows).\n"
	      "Exit status: 0 done or allowed, 1 denied or the run failed, 2 usage or config\n"
	      "error.\n"
	      "See kli(1).\n", out);
}

/* argv text inside a one-line message. */
static const char *printable(const char *s)
{
	static char buf[4100]; /* main.c only; one message at a time: a whole path */
	size_t o = 0;
	for (; *s && o < sizeof buf - 4; s++)
		buf[o++] = (*s >= 0x20 && *s < 0x7f) ? *s : '?';
	strcpy(buf + o, *s ? "..." : "");
	return buf;
}

/* -c SECTION.KEY=VALUE (or -m MODEL as model.model=MODEL) into the INI
 * text the settings read as the "command line" layer: the reader checks
 * the section, the key and the value exactly as it checks a file's. */
static void add_override(struct cli *cli, const char *flag, const char *arg)
{
	const char *eq = strchr(arg, '=');
	const char *dot = NULL;
	for (const char *p = arg; eq && p < eq; p++)
		if (*p == '.')
			dot = p;
	if (!eq || !dot || dot == arg || dot + 1 == eq)
		die("%s '%s': expected SECTION.KEY=VALUE, such as model.timeout=60 (see 'kli --help')",
		    flag, printable(arg));
	for (const char *p = arg; *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '[' || *p == ']')
			die("%s '%s': a newline or a bracket has no place in an override", flag,
			    printable(arg));
	sb_addf(&cli->overrides, "[%.*s]\n%.*s = %s\n", (int)(dot - arg), arg,
		(int)(eq - dot - 1), dot + 1, eq + 1);
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

static long parse_turns(const char *v)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < 1 || n > 10000)
		usage_error("--max-turns: '%s' is not a number from 1 to 10000", printable(v));
	return n;
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

static void gate_cli_check(const struct cli *cli);

static void parse_cli(int argc, char **argv, struct cli *cli)
{
	static const struct option longopts[] = {
		{ "print-authority", no_argument, NULL, OPT_PRINT_AUTHORITY },
		{ "check", required_argument, NULL, OPT_CHECK },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "read-only", no_argument, NULL, OPT_READ_ONLY },
		{ "no-bash", no_argument, NULL, OPT_NO_BASH },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "quiet", no_argument, NULL, 'q' },
		{ "model", required_argument, NULL, 'm' },
		{ "config", required_argument, NULL, 'c' },
		{ "prompt", required_argument, NULL, 'p' },
		{ "max-turns", required_argument, NULL, OPT_MAX_TURNS },
		{ "jail-policy", required_argument, NULL, OPT_JAIL_POLICY },
		{ "check-containment", no_argument, NULL, OPT_CHECK_CONTAINMENT },
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "system-config", required_argument, NULL, OPT_SYSTEM_CONFIG },
		{ "sessions", no_argument, NULL, OPT_SESSIONS },
		{ "resume", no_argument, NULL, OPT_RESUME },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	opterr = 0; /* our own one-line messages */
	for (;;) {
		/* '+': stop at the first operand, so a prompt is never taken for flags. */
		int c = getopt_long(argc, argv, "+:hVqp:m:c:", longopts, NULL);
		if (c == -1) {
			/* --check ATOM OBJECT --flags: take OBJECT, then go on parsing,
			 * unless "--" ended the flags (for an OBJECT like "-rf"). */
			bool ended = strcmp(argv[optind - 1], "--") == 0;
			/* --resume ID: the session's id, then the other flags */
			if (cli->resume && !cli->resume_id && optind < argc && !ended) {
				cli->resume_id = argv[optind++];
				continue;
			}
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
			finish_stdout();
			exit(0);
		case 'V':
			printf("kli %s\n", PACKAGE_VERSION);
			finish_stdout();
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
		case 'q':
			cli->quiet = true;
			break;
		case 'm': {
			_cleanup_free_ char *kv = xasprintf("model.model=%s", optarg);
			add_override(cli, "-m", kv);
			break;
		}
		case 'c':
			add_override(cli, "-c", optarg);
			break;
		case 'p':
			if (cli->prompt)
				usage_error("-p given twice");
			cli->prompt = optarg;
			break;
		case OPT_MAX_TURNS:
			cli->max_turns = parse_turns(optarg);
			break;
		case OPT_JAIL_POLICY:
			cli->jail_policy = optarg;
			break;
		case OPT_SESSIONS:
			cli->sessions = true;
			break;
		case OPT_RESUME:
			cli->resume = true;
			break;
		case OPT_CHECK_CONTAINMENT:
			cli->check_containment = true;
			break;
		case OPT_BASELINE:
			cli->baseline = optarg;
			break;
		case OPT_SYSTEM_CONFIG:
			/* trusted as the built-in path is (a store file shows as the
			 * overflow uid in a jail): absolute, and there */
			if (optarg[0] != '/')
				usage_error("--system-config: '%s' is not an absolute path",
					    printable(optarg));
			if (access(optarg, F_OK) != 0)
				usage_error("--system-config: %s: %s", printable(optarg),
					    strerror(errno));
			cli->system_config = optarg;
			break;
		default:
			bad_option(c, optopt, argv[optind - 1]);
		}
	}
	cli->nargs = argc - optind;
	gate_cli_check(cli);
	if (cli->print_authority && cli->check_atom)
		usage_error("--print-authority and --check do not go together");
	if (cli->prompt && (cli->print_authority || cli->check_atom))
		usage_error("-p does not go with %s",
			    cli->print_authority ? "--print-authority" : "--check");
	if (cli->json && cli->check_atom)
		usage_error("--json goes with --print-authority or an agent run, not --check");
	if (cli->max_turns && (cli->print_authority || cli->check_atom))
		usage_error("--max-turns goes with an agent run");
	if (cli->nargs > 0)
		usage_error("unexpected operand '%s'%s", printable(argv[optind]),
			    cli->print_authority || cli->check_atom ? ""
								    : " (a prompt goes after -p)");
}

/* The containment flags' combinations (gate.h). */
static void gate_cli_check(const struct cli *cli)
{
	if (cli->check_containment && (cli->print_authority || cli->check_atom || cli->prompt))
		usage_error("--check-containment goes alone, not with %s",
			    cli->print_authority ? "--print-authority"
			    : cli->check_atom    ? "--check" : "-p");
	if (cli->check_containment && (cli->json || cli->max_turns))
		usage_error("--check-containment does not take %s",
			    cli->json ? "--json" : "--max-turns");
	if ((cli->sessions || cli->resume) &&
	    (cli->print_authority || cli->check_atom || cli->check_containment))
		usage_error("%s goes with an agent run", cli->sessions ? "--sessions" : "--resume");
	if (cli->sessions && (cli->resume || cli->prompt || cli->json || cli->max_turns ||
			      cli->profile || cli->read_only || cli->no_bash || cli->quiet ||
			      cli->overrides.len || cli->system_config))
		usage_error("--sessions goes alone");
	if (cli->baseline && !cli->check_containment)
		usage_error("--baseline goes with --check-containment");
	if (cli->jail_policy && !cli->check_containment && !cli->print_authority)
		usage_error("--jail-policy goes with --print-authority or --check-containment");
}

static char *home_dir(void)
{
	const char *h = getenv("HOME");
	if (h && h[0] == '/')
		return xstrdup(h);
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? xstrdup(pw->pw_dir) : NULL;
}

/* The grant's lines, then kli's own files, which it never reaches. */
static char *report_with_exclusions(const struct grant *g, const struct kli_exclusions *x)
{
	_cleanup_free_ char *grant = report_text(g);
	_cleanup_free_ char *own = report_exclusions_text(x);
	return xasprintf("%s%s", grant, own);
}

/* A shell tool's command reads whatever the user can: with process/exec
 * granted, a key file this process can read is the model's for the asking
 * (kjail --secret hands the key over on a descriptor instead). One line. */
static void warn_key_exposed(const struct kli_settings *s, const char *home)
{
	_cleanup_free_ char *path = key_file_readable(&s->model, home);
	if (path && mediate_offers(s->grant, TOOL_BASH))
		warn_msg("warning: process/exec is granted and the API key file %s is readable by "
			 "the shell tool's commands; run kli under kjail --secret model=%s with "
			 "api-key-secret = model (kli.ini(5))", path, path);
}

static int run_check(const struct cli *cli, const struct kli_settings *s,
		     const struct auth_ctx *ctx)
{
	_cleanup_free_ char *reason = NULL;
	enum check_result r = mediate_check(s->grant, cli->check_atom, cli->check_object, ctx,
					    &reason);
	if (r == CHECK_BAD_ATOM)
		usage_error("--check: %s", reason);
	if (r == CHECK_ALLOWED) {
		puts("allowed");
		/* a file atom held without an OBJECT: never on these */
		if (!cli->check_object && mediate_on_files(cli->check_atom)) {
			_cleanup_free_ char *own = report_exclusions_text(ctx->excluded);
			fputs(own, stdout);
		}
	} else {
		/* One line: a path (a link's target) with a newline must not
		 * print an "allowed" line of its own. */
		ctrl_scrub(reason);
		printf("denied: %s\n", reason);
	}
	finish_stdout();
	return r == CHECK_ALLOWED ? 0 : 1;
}


/* ------------------------------------------------------------- the agent */

/* What the interactive /profile needs to build another grant. */
struct reload {
	const struct kli_files *files;
	const struct kli_options *opts;
	const struct auth_ctx *ctx;
};

static struct grant *load_profile(void *vctx, const char *name, char *err, size_t errlen)
{
	const struct reload *r = vctx;
	struct kli_options o = *r->opts;
	o.profile = name;
	struct kli_settings s;
	if (!settings_load(r->files, &o, r->ctx, &s, err, errlen))
		return NULL;
	struct grant *g = steal_pointer(&s.grant);
	settings_clear(&s);
	return g;
}

/* [model] into what the client needs; the key is loaded here and, when it
 * came from the environment, wiped from it. */
/* [model] stream, else on for the interactive session and for -p when
 * stdout is a terminal: a person is there to read the text as it comes. */
static bool stream_default(const struct kli_settings *s, const struct cli *cli)
{
	if (s->model.stream >= 0)
		return s->model.stream == 1;
	return !cli->prompt || isatty(STDOUT_FILENO);
}

static void model_setup(const struct kli_settings *s, const char *home, const char *user,
			struct model_conf *m)
{
	char err[600];
	if (!s->model.base_url || !s->model.model)
		die("no model is configured: set base-url and model in [model] of %s "
		    "(see kli(1))", user ? user : "the user config");
	*m = (struct model_conf){
		.base_url = xstrdup(s->model.base_url),
		.model = xstrdup(s->model.model),
		.timeout = s->model.timeout > 0 ? s->model.timeout : MODEL_DEFAULT_TIMEOUT,
		.idle_timeout = s->model.idle_timeout > 0 ? s->model.idle_timeout
							  : MODEL_DEFAULT_IDLE_TIMEOUT,
		.connect_timeout = s->model.connect_timeout > 0 ? s->model.connect_timeout
								: MODEL_DEFAULT_CONNECT_TIMEOUT,
		.retries = s->model.retries >= 0 ? s->model.retries : MODEL_DEFAULT_RETRIES,
	};
	if (!chat_endpoint(m->base_url, &m->url, &m->unix_path, err, sizeof err))
		die("[model] %s", err);
	if (!key_load(&s->model, home, &m->key, err, sizeof err))
		die("[model] %s", err);
	/* The key may sit in the environment under any name; none of them
	 * reaches a tool, or kli's own /proc/PID/environ. */
	key_scrub_environ(m->key);
}

static void model_clear(struct model_conf *m)
{
	free(m->base_url);
	free(m->url);
	free(m->unix_path);
	free(m->model);
	key_free(m->key);
	*m = (struct model_conf){ 0 };
}

/* The prompt of -p: the argument, or standard input for "-". */
static char *read_prompt(const char *arg)
{
	if (strcmp(arg, "-") != 0)
		return xstrdup(arg);
	struct strbuf text = STRBUF_INIT_MAX(1024 * 1024);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
		if (!sb_add(&text, buf, n))
			die("-p -: the prompt on standard input is larger than 1 MiB");
	if (ferror(stdin))
		die_errno("-p -: cannot read standard input");
	if (text.len == 0)
		die("-p -: standard input holds no prompt");
	return sb_detach(&text);
}

/* Process-wide settings an agent run needs before its first fork. */
static void agent_process_setup(void)
{
	/* Not dumpable: another process of this user (a tool's command among
	 * them) cannot read kli's memory, where the key is, through /proc. */
	prctl(PR_SET_DUMPABLE, 0);
	/* Background jobs outlive the barrier child that starts them; as
	 * their subreaper kli can still wait for them. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	/* Ctrl-C, a TERM or a hang-up: take every process kli started along
	 * (background jobs are in process groups of their own, which the
	 * terminal's signals never reach). */
	shutdown_install();
	signal(SIGPIPE, SIG_IGN);
	model_global_init();
}

static int headless(struct agent *a, const char *prompt_arg, long max_turns,
		    struct store *st)
{
	_cleanup_free_ char *prompt = read_prompt(prompt_arg);
	char *answer = NULL, *error = NULL;
	int status = 0;
	bool ok = agent_ask(a, prompt, max_turns, &answer, &error);
	store_save(st, a->history);
	/* a cut answer too: nothing is lost (unless it was shown as it came) */
	if (answer && !a->sh->json && !a->answer_shown)
		term_print_answer(stdout, answer, a->sh->live_tty);
	if (!ok) {
		warn_msg("%s", error);
		status = 1;
	}
	agent_emit_result(a, !ok, status);
	free(answer);
	free(error);
	return status;
}

struct agent_args {
	const struct cli *cli;
	struct kli_settings *s;
	const struct auth_ctx *ctx;
	const char *home, *user;
	const struct reload *reload;
	const char *git_root;
};

static int run_agent(const struct agent_args *x)
{
	struct model_conf model;
	model_setup(x->s, x->home, x->user, &model);
	model.stream = stream_default(x->s, x->cli);
	agent_process_setup();
	char **env = agent_tool_environ(environ, x->s->bash_env.n ? x->s->bash_env.v : NULL,
					x->s->bash_env.n, model.key);
	struct agent_shared sh;
	agent_shared_init(&sh, &model, x->ctx);
	sh.json = x->cli->json;
	sh.live_fd = STDOUT_FILENO;
	sh.live_tty = isatty(STDOUT_FILENO);
	sh.quiet = x->cli->quiet;
	sh.show_tty = isatty(STDERR_FILENO);
	sh.env.bash_env = env;
	sh.env.shell = access("/bin/bash", X_OK) == 0 ? "/bin/bash" : "/bin/sh";
	sh.env.bash_timeout = x->s->bash_timeout > 0 ? x->s->bash_timeout : DEFAULT_BASH_TIMEOUT;
	sh.fault_log = faultlog_path(getenv("XDG_CACHE_HOME"), x->home);
	long turns = x->cli->max_turns ? x->cli->max_turns : DEFAULT_MAX_TURNS;

	struct instructions instr;
	instructions_load(&instr, x->ctx->workspace, x->git_root, x->s->grant, x->ctx);
	sh.instructions = instr.text;
	struct agent a;
	agent_init(&a, &sh, x->s->grant, 0, "main");
	char err[1024];
	struct store st = { .workspace = x->ctx->workspace, .key = model.key };
	st.dir = store_dir(x->ctx->workspace, true, err, sizeof err);
	if (x->cli->resume && !session_resume(&st, &a, x->cli->resume_id, err, sizeof err))
		die("%s", err);
	if (!st.dir)
		warn_msg("sessions are not saved: %s", err);
	int status;
	if (x->cli->prompt) {
		status = headless(&a, x->cli->prompt, turns, &st);
	} else {
		/* Ctrl-C stops a turn, not the session (cancel.h) */
		if (!cancel_install())
			die_errno("cannot take Ctrl-C");
		struct session ses = {
			.agent = &a, .grant = steal_pointer(&x->s->grant),
			.profile = xstrdup(x->s->profile), .max_turns = turns,
			.prompt = isatty(0), .load = load_profile, .load_ctx = (void *)x->reload,
			.store = &st,
		};
		status = session_run(&ses, stdin, stdout);
		grant_free(ses.grant);
		free(ses.profile);
	}
	store_clear(&st);
	agent_clear(&a);
	agent_shared_clear(&sh);
	instructions_clear(&instr);
	for (char **e = env; *e; e++)
		free(*e);
	free(env);
	model_clear(&model);
	if (status == 130) { /* Ctrl-C twice: end as Ctrl-C ends a program */
		shutdown_kill_descendants();
		fflush(NULL);
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
	}
	return status;
}

int main(int argc, char **argv)
{
	set_fatal_status(2);
	struct cli cli = { .overrides = STRBUF_INIT };
	parse_cli(argc, argv, &cli);

	_cleanup_free_ char *workspace = getcwd(NULL, 0);
	if (!workspace)
		die_errno("cannot find the workspace (the current directory)");
	if (cli.sessions)
		return store_cli_list(workspace);
	_cleanup_free_ char *home = home_dir();
	_cleanup_free_ char *user = settings_user_config(getenv("XDG_CONFIG_HOME"), home);
	_cleanup_free_ char *git_root = settings_git_root(workspace);
	_cleanup_free_ char *project = settings_project_config(workspace, git_root);
	const struct kli_files files = { cli.system_config ? cli.system_config : KLI_SYSTEM_CONFIG,
					 user, project, cli.overrides.len ? cli.overrides.s : NULL };
	const struct kli_options opts = {
		.profile = cli.profile,
		.default_profile = cli.print_authority || cli.prompt || cli.check_containment ||
					   cli.check_atom
					   ? KLI_PROFILE_PRINT : KLI_PROFILE_INTERACTIVE,
		.read_only = cli.read_only,
		.no_bash = cli.no_bash,
	};
	const struct auth_ctx ctx0 = { .workspace = workspace, .home = home, .resolve = NULL };

	struct kli_settings s;
	char err[1024];
	if (!settings_load(&files, &opts, &ctx0, &s, err, sizeof err))
		die("%s", err);
	/* kli's own files: outside every grant from here on */
	struct kli_exclusions excl = { 0 };
	exclusions_build(&excl, &files, s.model.api_key_file, git_root, &ctx0);
	const struct auth_ctx ctx = { .workspace = workspace, .home = home, .resolve = NULL,
				      .excluded = &excl };

	int status = 0;
	if (cli.print_authority || cli.check_atom)
		warn_key_exposed(&s, home);
	if (cli.print_authority) {
		_cleanup_free_ char *out = cli.json
			? report_json(s.grant, s.profile, s.sources, s.nsources, &excl)
			: report_with_exclusions(s.grant, &excl);
		struct jail_policy *jp = gate_policy(cli.jail_policy, workspace);
		_cleanup_free_ char *with = gate_report(s.grant, out, cli.json, jp);
		jail_policy_free(jp);
		fputs(with, stdout);
		if (!cli.json)
			instructions_print(workspace, git_root, s.grant, &ctx, stdout);
		finish_stdout();
	} else if (cli.check_containment) {
		struct jail_policy *jp = gate_policy(cli.jail_policy, workspace);
		status = gate_check(s.grant, jp, cli.baseline, workspace);
		jail_policy_free(jp);
	} else if (cli.check_atom) {
		status = run_check(&cli, &s, &ctx);
	} else {
		const struct reload reload = { &files, &opts, &ctx };
		const struct agent_args x = { &cli, &s, &ctx, home, user, &reload, git_root };
		status = run_agent(&x);
	}
	settings_clear(&s);
	exclusions_clear(&excl);
	sb_release(&cli.overrides);
	finish_stdout();
	return status;
}
