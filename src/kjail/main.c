/* SPDX-License-Identifier: MIT */
/* kjail: run a command with the host read-only, the workspace writable,
 * credentials masked and secrets scrubbed. main() reads top to bottom:
 * parse, policy (config layers, then flags), plan, then one backend
 * (run/backend.h), looked up and called: it prints its invocation, or runs
 * the command, waits for it and returns its status. */
#include "config.h"
#include "policy/conf.h"
#include "policy/egress.h"
#include "policy/env.h"
#include "build/declared.h"
#include "build/explain.h"
#include "planner/planner.h"
#include "planner/shell.h"
#include "path.h"
#include "policy/policy.h"
#include "entry/entry.h"
#include "run/backend.h"
#include "run/hints.h"
#include "run/locate.h"
#include "run/stdio_guard.h"
#include "policy/secret.h"
#include "policy/sockets.h"
#include "run/probe.h"
#include "run/bwrap-probe.h"
#include "run/doctor.h"
#include "run/caches.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

enum {
	OPT_NETWORK = 256, OPT_NESTED, OPT_NO_DEFAULTS, OPT_CONFIG, OPT_BACKEND, OPT_FALLBACK,
	OPT_PRINT, OPT_EXPLAIN, OPT_JSON, OPT_ALLOW_USERNS, OPT_DOCTOR, OPT_ALLOW_HOST, OPT_NET_LOG,
	OPT_DEVICE,
	OPT_ALLOW_SOCKET,
	OPT_CACHE, OPT_NO_CACHE, OPT_CACHE_LIST, OPT_CACHE_PRUNE, OPT_SECRET, OPT_CHECK_CONFIG,
};

static const char short_opts[] = "+:C:w:r:e:k:nvhV";
static const struct option long_opts[] = {
	{ "workspace", required_argument, NULL, 'C' },
	{ "writable", required_argument, NULL, 'w' },
	{ "deny-read", required_argument, NULL, 'r' },
	{ "deny-env", required_argument, NULL, 'e' },
	{ "keep-env", required_argument, NULL, 'k' },
	{ "no-network", no_argument, NULL, 'n' },
	{ "network", no_argument, NULL, OPT_NETWORK },
	{ "allow-host", required_argument, NULL, OPT_ALLOW_HOST },
	{ "net-log", required_argument, NULL, OPT_NET_LOG },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "allow-socket", required_argument, NULL, OPT_ALLOW_SOCKET },
	{ "secret", required_argument, NULL, OPT_SECRET },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "no-cache", no_argument, NULL, OPT_NO_CACHE },
	{ "cache-list", no_argument, NULL, OPT_CACHE_LIST },
	{ "cache-prune", optional_argument, NULL, OPT_CACHE_PRUNE },
	{ "nested-userns", no_argument, NULL, OPT_NESTED },
	{ "no-defaults", no_argument, NULL, OPT_NO_DEFAULTS },
	{ "allow-userns", no_argument, NULL, OPT_ALLOW_USERNS },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "fallback", required_argument, NULL, OPT_FALLBACK },
	{ "print", no_argument, NULL, OPT_PRINT },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "check-config", no_argument, NULL, OPT_CHECK_CONFIG },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "verbose", no_argument, NULL, 'v' },
	{ "doctor", no_argument, NULL, OPT_DOCTOR },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fputs("Usage: kjail [OPTION]... [--] [COMMAND [ARG]...]\n"
	      "Run COMMAND (default: $SHELL, else /bin/sh) confined: the host read-only,\n"
	      "the workspace writable, credential stores masked, secrets removed from the\n"
	      "environment, no privileges, no new user namespaces.\n"
	      "\n"
	      "  -C, --workspace=DIR    writable workspace (default: the current directory)\n"
	      "  -w, --writable=PATH    also bind PATH writable (repeatable)\n"
	      "  -r, --deny-read=PATH   mask PATH: a file reads as empty, a directory lists\n"
	      "                         empty (repeatable)\n"
	      "  -e, --deny-env=NAME    unset NAME; shell glob patterns allowed (repeatable)\n"
	      "  -k, --keep-env=NAME    let NAME through the built-in secret scrub (repeatable)\n"
	      "  -n, --no-network       no network: own network namespace, loopback only (no\n"
	      "                         DNS either); kjail's proxy there refuses every host\n"
	      "                         at once, naming the --allow-host that would allow it\n"
	      "      --network          keep the host network (the default)\n"
	      "      --allow-host=HOST[:PORT]  own network namespace; reach HOST (a name,\n"
	      "                         *.SUFFIX, an IP or @GROUP) on PORT (default 80\n"
	      "                         and 443, * for any) through kjail's proxy, and\n"
	      "                         nothing else (repeatable); 127.0.0.1:PORT,\n"
	      "                         [::1]:PORT or localhost:PORT forward the host's\n"
	      "                         loopback port to the same address in the jail\n"
	      "      --net-log=FILE     keep the proxy's log (one JSON line a connection)\n"
	      "                         at FILE after the run (--allow-host, -n); FILE\n"
	      "                         must lie outside the jail's writable paths\n"
	      "      --device=gpu       also the host's GPU device nodes (/dev/nvidia*,\n"
	      "                         /dev/dri, /dev/kfd), read-write; see kjail(1)\n"
	      "      --allow-socket=NAME|PATH  let the jail reach this one Unix socket: a\n"
	      "                         path, or ssh-agent, gpg-agent, docker, podman,\n"
	      "                         system-bus (repeatable; see kjail(1))\n"
	      "      --secret=NAME=PATH|NAME=env:VAR  read PATH (or kjail's variable VAR)\n"
	      "                         outside the jail, mask it inside, and hand its\n"
	      "                         bytes to COMMAND on the descriptor named by\n"
	      "                         $KJAIL_SECRET_<NAME>_FD (repeatable; see kjail(1))\n"
	      "      --cache=MODE       toolchain caches (npm, pip, go, ccache...): true\n"
	      "                         (the default: kjail's own, one per workspace),\n"
	      "                         false, or shared (the user's own, writable)\n"
	      "      --no-cache         no writable caches (--cache=false); no shell history\n"
	      "      --cache-list       list each workspace's cache: size, last use, workspace\n"
	      "      --cache-prune[=DAYS]  remove the caches not used for DAYS days (default\n"
	      "                         30) or whose workspace is gone; one line each\n"
	      "      --nested-userns    inside a container that masks /proc: bind /proc\n"
	      "                         instead of mounting it, no PID namespace\n"
	      "      --no-defaults      drop the built-in masks and environment scrub\n"
	      "                         (protected paths stay)\n"
	      "      --allow-userns     let the command create user namespaces (for tools\n"
	      "                         that sandbox themselves); see kjail(1) for the cost\n"
	      "      --config=FILE      read FILE instead of the system and user config\n"
	      "      --backend=NAME     auto | bwrap | seatbelt | container | landlock\n"
	      "      --fallback=NAME    none | landlock: used when bwrap cannot start\n"
	      "      --print            print the backend invocation instead of running it\n"
	      "      --explain [PATH]...  describe the jail, or the verdict on each PATH\n"
	      "      --check-config     read and check the config and flags, and print the\n"
	      "                         policy as declared, resolving nothing of this host\n"
	      "                         (no sockets, devices, paths; ~ stays ~); runs nothing\n"
	      "      --json             machine-readable --print, --explain, --check-config\n"
	      "  -v, --verbose          with --explain: every rule, mask and absent path\n"
	      "      --doctor           check this host: what works, what does not, the fix\n"
	      "  -h, --help             show this help and exit\n"
	      "  -V, --version          show the version and build and exit\n"
	      "\n"
	      "Config: " KJ_SYSTEM_CONFIG ", then $XDG_CONFIG_HOME/kjail/config.ini\n"
	      "(default ~/.config/kjail/config.ini); see kjail(1).\n"
	      "Exit status: the command's own (128+N for signal N); 125 if kjail fails;\n"
	      "126 if COMMAND cannot be executed; 127 if it is not found.\n",
	      out);
	fputs("Groups for --allow-host (--explain lists their hosts):", out);
	for (const char *const *g = allow_group_names(); *g; g++)
		fprintf(out, " @%s", *g);
	fputc('\n', out);
}

/* getopt's own messages take two lines and the full path; say it once. */
static KJ_NORETURN void bad_usage(int c, char **argv)
{
	const char *word = argv[optind - 1];
	if (c == ':')
		die("option '%s' needs a value; try 'kjail --help'", word);
	if (optopt && !str_has_prefix(word, "--"))
		die("unknown option '-%c'; try 'kjail --help'", optopt);
	die("unknown option '%s'; try 'kjail --help'", word);
}

static void version(void)
{
	printf("kjail %s\n", PACKAGE_VERSION);
	backends_version(stdout);
	printf("system config: %s\n", KJ_SYSTEM_CONFIG);
}

struct cli {
	const char *config;
	bool print, explain, json, verbose, doctor, check_config;
	int caches;            /* OPT_CACHE_LIST or OPT_CACHE_PRUNE, or 0 */
	const char *cache_days;
	const char *home;      /* for ~ in flag values */
};

/* First pass: only what decides which config files to read. */
static void pre_scan(int argc, char **argv, struct cli *cli)
{
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		if (c == OPT_CONFIG)
			cli->config = optarg;
		else if (c == OPT_CHECK_CONFIG)
			cli->check_config = true;
		else if (c == OPT_DOCTOR)
			cli->doctor = true;
		else if (c == OPT_CACHE_LIST || c == OPT_CACHE_PRUNE) {
			cli->caches = c;
			cli->cache_days = optarg;
		} else if (c == 'h') {
			usage(stdout);
			finish_stdout();
			exit(0);
		} else if (c == 'V') {
			version();
			finish_stdout();
			exit(0);
		}
	}
	optind = 0;
}

static char *flag_path(const struct cli *cli, const char *flag, const char *value)
{
	if (!value[0])
		die("%s: empty path", flag);
	char *p = path_expand_home(value, cli->home);
	if (!p)
		die("%s: cannot expand '%s'", flag, value);
	return p;
}

static void add_flag_path(struct entry_list *l, const struct cli *cli, const char *flag,
			  const char *value)
{
	_cleanup_free_ char *p = flag_path(cli, flag, value);
	entry_add(l, p, flag);
}

static void add_flag_pattern(struct entry_list *l, const char *flag, const char *value)
{
	if (!env_pattern_valid(value))
		die("%s: not a variable name or pattern: '%s'", flag, value);
	entry_add(l, value, flag);
}

/* Second pass: flags override config scalars and add to its lists. */
static void apply_flags(int argc, char **argv, struct cli *cli, struct policy *p)
{
	int c;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'C':
			free(p->workspace);
			p->workspace = flag_path(cli, "--workspace", optarg);
			str_set(&p->workspace_origin, "--workspace");
			break;
		case 'w':
			add_flag_path(&p->writable, cli, "--writable", optarg);
			break;
		case 'r':
			add_flag_path(&p->deny_read, cli, "--deny-read", optarg);
			break;
		case 'e':
			add_flag_pattern(&p->deny_env, "--deny-env", optarg);
			break;
		case 'k':
			add_flag_pattern(&p->keep_env, "--keep-env", optarg);
			break;
		case 'n':
			bool_set(&p->network, false, "--no-network");
			break;
		case OPT_NETWORK:
			bool_set(&p->network, true, "--network");
			break;
		case OPT_ALLOW_HOST: {
			char err[512];
			if (!egress_add(&p->allow_host, "--allow-host", optarg, "--allow-host", err,
					sizeof err))
				die("%s", err);
			break;
		}
		case OPT_NET_LOG: {
			_cleanup_free_ char *path = flag_path(cli, "--net-log", optarg);
			str_set(&p->net_log, path);
			str_set(&p->net_log_origin, "--net-log");
			break;
		}
		case OPT_DEVICE: {
			char err[512];
			_cleanup_free_ char *origin = xasprintf("--device=%s", optarg);
			if (!device_add(&p->devices, "--device", optarg, origin, err, sizeof err))
				die("%s", err);
			break;
		}
		case OPT_ALLOW_SOCKET: {
			char err[512];
			if (!socket_add(p, "--allow-socket", optarg, "--allow-socket", cli->home, err,
					sizeof err))
				die("%s", err);
			break;
		}
		case OPT_SECRET: {
			char err[512];
			_cleanup_free_ char *cwd = getcwd(NULL, 0);
			if (!secret_add(&p->secrets, "--secret", optarg, "--secret", cli->home,
					cwd ? cwd : "/", err, sizeof err))
				die("%s", err);
			break;
		}
		case OPT_CACHE:
			if (!cache_mode_parse(optarg, &p->cache))
				die("--cache: expected true, false or shared, got '%s'", optarg);
			str_set(&p->cache_origin, "--cache");
			break;
		case OPT_NO_CACHE:
			p->cache = CACHE_OFF;
			str_set(&p->cache_origin, "--no-cache");
			break;
		case OPT_NESTED:
			bool_set(&p->nested_userns, true, "--nested-userns");
			break;
		case OPT_NO_DEFAULTS:
			bool_set(&p->defaults, false, "--no-defaults");
			break;
		case OPT_ALLOW_USERNS:
			bool_set(&p->allow_userns, true, "--allow-userns");
			break;
		case OPT_CONFIG:
			break;
		case OPT_BACKEND:
			if (!backend_parse(optarg, &p->backend))
				die("--backend: expected auto, bwrap, seatbelt, container or landlock, "
				    "got '%s'", optarg);
			str_set(&p->backend_origin, "--backend");
			break;
		case OPT_FALLBACK:
			if (!fallback_parse(optarg, &p->fallback))
				die("--fallback: expected none or landlock, got '%s'", optarg);
			str_set(&p->fallback_origin, "--fallback");
			break;
		case OPT_PRINT:
			cli->print = true;
			break;
		case OPT_EXPLAIN:
			cli->explain = true;
			break;
		case OPT_JSON:
			cli->json = true;
			break;
		case OPT_CHECK_CONFIG:
			break;
		case 'v':
			cli->verbose = true;
			break;
		case OPT_DOCTOR:
			break;
		default:
			bad_usage(c, argv);
		}
	}
	if (cli->print && cli->explain)
		die("--print and --explain cannot be combined");
	if (cli->check_config && (cli->print || cli->explain || cli->verbose))
		die("--check-config goes alone, not with --print, --explain or --verbose");
	if (cli->json && !cli->print && !cli->explain && !cli->check_config)
		die("--json goes with --print, --explain or --check-config");
	if (cli->verbose && !cli->explain)
		die("--verbose goes with --explain");
}

/* The layers: which files from home, their "~" expanded to tilde. */
static void load_config_at(struct policy *p, const struct cli *cli, const char *home,
			   const char *tilde)
{
	char err[1024];
	if (cli->config) {
		if (!config_load_file(p, cli->config, false, tilde, err, sizeof err))
			die("%s", err);
		return;
	}
	if (!config_load_file(p, KJ_SYSTEM_CONFIG, true, tilde, err, sizeof err))
		die("%s", err);
	_cleanup_free_ char *user = config_user_path(home, getenv("XDG_CONFIG_HOME"));
	if (user && !config_load_file(p, user, true, tilde, err, sizeof err))
		die("%s", err);
}

static void load_config(struct policy *p, const struct cli *cli, const char *home)
{
	load_config_at(p, cli, home, home);
}

/* A config file the jail could rewrite would loosen the next jail. */
static void refuse_writable_configs(const struct policy *p, const struct plan *pl,
				    const char *cwd)
{
	for (size_t i = 0; i < p->sources.n; i++) {
		_cleanup_free_ char *real = path_resolve(p->sources.v[i].value, cwd);
		const struct op *o = real ? plan_verdict(pl, real) : NULL;
		if (o && (o->kind == OP_BIND || o->kind == OP_PIN))
			die("%s: config file lies inside the writable %s %s; refusing it "
			    "(the jail could rewrite it)",
			    p->sources.v[i].value, o->rule, o->path);
	}
}

/* A socket that gives the host away: one line a run, each kind once. */
static void warn_host_sockets(const struct plan *pl)
{
	for (size_t i = 0; i < pl->nsockets; i++) {
		const char *w = pl->sockets[i].warning;
		bool said = false;
		for (size_t j = 0; w && j < i; j++)
			said = said || (pl->sockets[j].warning && strcmp(pl->sockets[j].warning, w) == 0);
		if (w && !said)
			warn_msg("%s", w);
	}
}

/* --check-config: the layers and flags read and checked as for a run, every
 * "~" kept symbolic (declared.h), nothing of the host looked at. */
static int check_config(int argc, char **argv, struct cli *cli, const char *home)
{
	struct policy p;
	policy_init(&p);
	load_config_at(&p, cli, home, DECLARED_HOME);
	cli->home = DECLARED_HOME;
	apply_flags(argc, argv, cli, &p);
	if (argv[optind])
		die("--check-config runs nothing: drop '%s'", argv[optind]);
	_cleanup_free_ char *cwd = getcwd(NULL, 0);
	if (!cwd)
		die_errno("cannot get the current directory");
	char err[1024];
	if (!declared_write(stdout, &p, cwd, cli->json, err, sizeof err))
		die("%s", err);
	policy_free(&p);
	finish_stdout();
	return 0;
}

static char **command_of(char **rest, char **default_cmd)
{
	if (rest[0])
		return rest;
	const char *sh = getenv("SHELL");
	default_cmd[0] = (char *)(sh && sh[0] ? sh : "/bin/sh");
	default_cmd[1] = NULL;
	return default_cmd;
}

/* fallback = landlock: where bwrap cannot start (not installed, user
 * namespaces refused, a fresh /proc refused by a container's masks
 * unless the jail takes --nested-userns's shape, or it failed the probe
 * below), the Landlock backend, never silently. Then what bwrap can do
 * here (run/bwrap-probe.h), for a jail that would give it
 * --disable-userns: probed by a run, once a boot; --print and --explain
 * read the cache. */
static void choose_backend(struct policy *p, bool in_kjail, bool run, struct bwrap_probe *bp)
{
	*bp = (struct bwrap_probe){ .state = BWRAP_PROBE_UNKNOWN };
	bool fallback = run && p->fallback == BACKEND_LANDLOCK &&
			backend_effective(p->backend) == BACKEND_BWRAP;
	char why[1024] = "";
	if (fallback && !bwrap_find())
		fmt_into(why, sizeof why, "bubblewrap is not installed");
	else if (fallback && !probe_userns(why, sizeof why) && !p->nested_userns.value &&
		 !probe_in_kjail_jail())
		probe_fresh_proc(why, sizeof why);
	if (!why[0] && backend_effective(p->backend) == BACKEND_BWRAP && !p->allow_userns.value &&
	    !in_kjail && bwrap_find())
		bwrap_probe(bwrap_find(), run, bp);
	if (fallback && !why[0] && bp->state == BWRAP_PROBE_BWRAP_FAILS)
		fmt_into(why, sizeof why, "%s", bp->why);
	if (!why[0])
		return;
	why[strcspn(why, ";")] = '\0';
	warn_msg("bwrap cannot start here (%s): falling back to --backend landlock (fallback = "
		 "landlock, %s)", why, p->fallback_origin);
	p->backend = BACKEND_LANDLOCK;
	str_set(&p->backend_origin, p->fallback_origin);
}

int main(int argc, char **argv)
{
	set_fatal_status(KJ_EXIT_FAIL);
	open_closed_stdio();
	seal_inherited_fds();
	/* kjail waits for bwrap and reaps the jail: a SIGCHLD the caller
	 * ignores would have the kernel reap them, and kjail never see the
	 * command's status */
	signal(SIGCHLD, SIG_DFL);

	/* parse */
	struct passwd *pw = getpwuid(getuid());
	const char *home_env = getenv("HOME");
	const char *home = home_env && home_env[0] == '/' ? home_env : pw ? pw->pw_dir : NULL;
	struct cli cli = { .home = home };
	pre_scan(argc, argv, &cli);
	if (cli.check_config)
		return check_config(argc, argv, &cli, home);
	_cleanup_free_ char *self = kjail_self();
	char enterr[PATH_MAX * 2 + 256] = "";
	_cleanup_free_ char *entry = entry_helper_find(self, enterr, sizeof enterr);
	/* before the config: a broken config is one of the things it reports */
	if (cli.doctor) {
		if (argc != 2)
			die("--doctor takes no other options or command");
		return doctor(self, bwrap_find());
	}
	if (cli.caches) {
		if (argc != 2)
			die("--cache-list and --cache-prune take no other options or command");
		return caches_main(cli.caches == OPT_CACHE_PRUNE, cli.cache_days,
				   pw ? pw->pw_dir : NULL, (unsigned)getuid(), stdout);
	}

	/* policy: config layers, then flags */
	struct policy p;
	policy_init(&p);
	load_config(&p, &cli, home);
	apply_flags(argc, argv, &cli, &p);
	/* inside a kjail jail a fresh /proc is refused: the nested jail binds
	 * the outer one's, read-only, as --nested-userns does */
	bool in_kjail = backend_effective(p.backend) == BACKEND_BWRAP && probe_in_kjail_jail();
	if (in_kjail && !p.nested_userns.value)
		bool_set(&p.nested_userns, true,
			 "implied: kjail runs inside a kjail jail (" KJ_POLICY_DIR
			 " is its read-only mount)");
	char **rest = argv + optind;
	char *default_cmd[2];
	char **cmd = command_of(rest, default_cmd);
	bool run = !cli.print && !cli.explain;
	struct bwrap_probe bp;
	choose_backend(&p, in_kjail, run, &bp);
	bool no_disable = bp.state == BWRAP_PROBE_NO_DISABLE &&
			  backend_effective(p.backend) == BACKEND_BWRAP;
	/* where bwrap is refused a fresh /proc too (a container's masks: it
	 * cannot write /proc/sys either), that is the one line, not this one */
	char proc_why[1024];
	if (run && no_disable && !p.nested_userns.value && !in_kjail &&
	    probe_fresh_proc(proc_why, sizeof proc_why))
		die("cannot start the jail: %s", proc_why);
	if (run && no_disable)
		warn_msg("bwrap cannot --disable-userns here (%s): user namespaces are refused by "
			 "seccomp alone", bp.why);
	if (run)
		refuse_directory_stdio();

	/* plan */
	_cleanup_free_ char *cwd = getcwd(NULL, 0);
	if (!cwd)
		die_errno("cannot get the current directory");
	struct host h = {
		.cwd = cwd,
		.home = pw ? pw->pw_dir : NULL,
		.home_env = home_env,
		.xdg_config_home = getenv("XDG_CONFIG_HOME"),
		.xdg_data_home = getenv("XDG_DATA_HOME"),
		.xdg_runtime_dir = getenv("XDG_RUNTIME_DIR"),
		.ssh_auth_sock = getenv("SSH_AUTH_SOCK"),
		.tmux = getenv("TMUX"),
		.tmux_tmpdir = getenv("TMUX_TMPDIR"),
		.screendir = getenv("SCREENDIR"),
		.git_config_global = getenv("GIT_CONFIG_GLOBAL"),
		.git_config_system = getenv("GIT_CONFIG_SYSTEM"),
		.env = environ,
		.self = entry,
		/* as bwrap finds what it binds at /dev/console */
		.console = isatty(STDOUT_FILENO) ? ttyname(STDOUT_FILENO) : NULL,
		.uid = (unsigned)getuid(),
		.dry_run = !run,
		.plan_caches = true,
		.scan_sockets = true,
		/* with --explain, the words after it are paths */
		.interactive = !rest[0] ||
			       (!cli.explain && shell_interactive_command(rest, getenv("PATH"), cwd)),
		.explain = cli.explain,
		.in_kjail = in_kjail,
		.no_disable_userns = no_disable ? bp.why : NULL,
		.disable_userns_cached = bp.state == BWRAP_PROBE_WORKS && bp.cached,
		.command = cli.explain ? NULL : cmd,
	};
	struct plan pl;
	char err[1024];
	if (!plan_build(&p, &h, environ, &pl, err, sizeof err))
		die("%s", err);
	refuse_writable_configs(&p, &pl, cwd);
	/* only bwrap's jail hands a descriptor over (run/secret.h) */
	if (!cli.explain && p.secrets.n && pl.backend != BACKEND_BWRAP)
		die("%s: secrets need the bwrap backend; --backend %s cannot hand one over",
		    p.secrets.v[0].origin, backend_name(pl.backend));
	/* without a PID namespace of its own the jail sees bwrap's /proc
	 * entry, and through its fd/ the descriptor bwrap still holds */
	if (!cli.explain && p.secrets.n && p.nested_userns.value)
		die("%s: secrets need the jail's own PID namespace; with nested-userns (%s) "
		    "the jail could read one from bwrap's /proc entry",
		    p.secrets.v[0].origin, p.nested_userns.origin);
	warn_host_sockets(&pl);
	if (run && pl.cache_warn)
		warn_msg("no toolchain caches: %s (cache = false in kjail's config: no caches, "
			 "and no such line)", pl.cache_note);
	/* only a terminal's shell keeps a history worth a line */
	if (run && h.interactive && !pl.history && isatty(STDIN_FILENO))
		warn_msg("shell history is not kept in this jail (%s: no cache directory); the "
			 "home directory is read-only", p.cache_origin);
	if (run)
		hints_say(&pl);

	const char *bwrap = pl.backend == BACKEND_BWRAP ? bwrap_find() : NULL;
	if (cli.explain) {
		if (rest[0])
			explain_paths(stdout, &pl, cwd, rest, cli.json);
		else
			explain_policy(stdout, &p, &pl, bwrap,
				       cli.json ? EXPLAIN_JSON
				       : cli.verbose ? EXPLAIN_VERBOSE : EXPLAIN_SHORT);
		plan_free(&pl);
		policy_free(&p);
		finish_stdout();
		return 0;
	}

	/* one backend: its invocation printed, or the command run in it */
	const struct backend_ops *b = backend_lookup(pl.backend);
	struct launch l = { .policy = &p, .plan = &pl, .host = &h, .cmd = cmd,
			    .entry = entry, .entry_err = enterr, .json = cli.json };
	int rc = cli.print ? b->print(&l) : b->run(&l);
	plan_free(&pl);
	policy_free(&p);
	return rc;
}
