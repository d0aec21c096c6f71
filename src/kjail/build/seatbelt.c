/* SPDX-License-Identifier: MIT */
/* The plan as a Seatbelt profile for sandbox-exec (see seatbelt.h).
 *
 * Posture: (allow default), then denials. The Linux jail is a whole-host
 * read-only view with holes cut for writing, masks cut out of reading and
 * a syscall denylist; it never enumerates what a process may do. A
 * (deny default) profile would have to list every Mach service, sysctl and
 * IOKit class any compiler, interpreter or build tool might need, would
 * break on each macOS release, and would still not add a promise the Linux
 * jail makes. So: allow by default, and deny exactly what the jail
 * promises (writes outside the writable places, reads of masked paths, the
 * network under --no-network), plus the macOS-only ways out that Linux
 * closes by other means (Apple Events, LaunchServices, preference writes,
 * set-user-ID programs, signals to outside processes, the host's Unix
 * sockets in shared temporary directories, the clipboard).
 *
 * Seatbelt applies the LAST matching rule, so each section is "deny broad,
 * allow the holes, deny the exceptions inside the holes", in that order.
 *
 * Seatbelt matches the path the kernel resolved (/tmp is /private/tmp);
 * every path here is resolved already, and the other spelling is added as a
 * second parameter wherever macOS has two (/tmp, /var, /etc under /private),
 * so a rule holds whichever name a lookup reports. Matching is by name: a
 * protected name that does not exist yet is still protected, which the
 * Linux jail (mount based) cannot do. */
#include "config.h"
#include "build/seatbelt.h"
#include "path.h"
#include "strbuf.h"
#include "proxy/proxy.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KJ_STR_(x) #x
#define KJ_STR(x) KJ_STR_(x) /* a port macro as a string literal */

/* ------------------------------------------------------------- path sets */

/* Each kind of path becomes a numbered family of parameters. The families
 * are fixed words; only the numbers vary, so a parameter name can never
 * carry user text either. */
enum role {
	R_WRITABLE,    /* writable roots: the workspace and --writable */
	R_TMPDIR,      /* the per-user temporary directory */
	R_PIN,         /* directories that may not be renamed, removed or made */
	R_PROTECTED,   /* read-only inside writable roots, present or not */
	R_MASKED_FILE, /* masked files (and sockets) */
	R_MASKED_DIR,  /* masked directories */
	R_SOCKET,      /* sockets --allow-socket allows */
	R_INNER,       /* writable roots inside a masked directory (plan.h:
			* the workspace's cache directory) */
	R_COUNT,
};

static const char *const role_name[R_COUNT] = {
	"WRITABLE", "TMPDIR", "PIN", "PROTECTED", "MASKED_FILE", "MASKED_DIR", "SOCKET", "INNER",
};

/* The other name macOS gives the same path, or NULL: /tmp, /var and /etc
 * are symbolic links into /private. Both directions, so a plan made on a
 * system without /private still yields both spellings. */
static char *alias_of(const char *p)
{
	static const char *const pairs[][2] = {
		{ "/private/tmp", "/tmp" },
		{ "/private/var", "/var" },
		{ "/private/etc", "/etc" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++)
		for (int d = 0; d < 2; d++) {
			const char *rest = path_relative_to(p, pairs[i][d]);
			if (rest)
				return rest[0] ? xasprintf("%s/%s", pairs[i][!d], rest)
					       : xstrdup(pairs[i][!d]);
		}
	return NULL;
}

/* Adds path and its other spelling, if any. */
static void add(struct strv *s, const char *path)
{
	strv_push(s, path);
	char *alt = alias_of(path);
	if (alt)
		strv_take(s, alt);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted and unique: the parameters come out the same for the same set,
 * whatever order the plan listed them in. */
static void sort_unique(struct strv *s)
{
	if (s->n < 2)
		return;
	qsort(s->v, s->n, sizeof *s->v, cmp_str);
	size_t w = 1;
	for (size_t r = 1; r < s->n; r++) {
		if (strcmp(s->v[r], s->v[w - 1]) == 0)
			free(s->v[r]);
		else
			s->v[w++] = s->v[r];
	}
	s->n = w;
	s->v[w] = NULL;
}

/* Every directory from path's parent up to and including each writable
 * root that holds it. On Linux these are mount points or bound onto
 * themselves; here a name rule would not follow a renamed directory, so the
 * directories themselves may be neither renamed away (and the path rebuilt
 * outside the rule's reach) nor, when absent, created. */
static void pin_ancestors(struct strv *pins, const struct strv *roots, const char *path)
{
	for (size_t r = 0; r < roots->n; r++) {
		const char *root = roots->v[r];
		if (!path_is_under(path, root) || strcmp(path, root) == 0)
			continue;
		char *d = path_dirname(path);
		for (;;) {
			add(pins, d);
			if (strcmp(d, root) == 0)
				break;
			char *up = path_dirname(d);
			free(d);
			d = up;
		}
		free(d);
	}
}

struct gen {
	struct strv set[R_COUNT];
	struct strbuf text;
};

static bool covers_a_root(const struct strv *roots, const char *path)
{
	for (size_t r = 0; r < roots->n; r++)
		if (path_is_under(roots->v[r], path))
			return true;
	return false;
}

static void collect(struct gen *g, const struct plan *pl, const struct seatbelt_host *h)
{
	struct strv roots = STRV_INIT, guarded = STRV_INIT, keychains = STRV_INIT;
	for (size_t i = 0; i < pl->nops; i++) {
		const struct op *o = &pl->ops[i];
		switch (o->kind) {
		case OP_BIND:
			strv_push(&roots, o->path);
			add(&g->set[R_WRITABLE], o->path);
			if (o->inner)
				add(&g->set[R_INNER], o->path);
			break;
		case OP_PIN:
			add(&g->set[R_PIN], o->path);
			break;
		case OP_SEAL:
			/* no rule takes new entries alone: read-only, as the
			 * watched directories are below */
			strv_push(&guarded, o->path);
			add(&g->set[R_PROTECTED], o->path);
			break;
		case OP_PROTECT:
			strv_push(&guarded, o->path);
			add(&g->set[R_PROTECTED], o->path);
			break;
		case OP_MASK_FILE:
			strv_push(&guarded, o->path);
			add(&g->set[R_MASKED_FILE], o->path);
			break;
		case OP_MASK_DIR:
			strv_push(&guarded, o->path);
			add(&g->set[R_MASKED_DIR], o->path);
			break;
		case OP_SOCKET:
			add(&g->set[R_SOCKET], o->path);
			break;
		case OP_RO_ROOT:   /* the default: everything not written below */
		case OP_DEV:       /* no private /dev: the device rules below */
		case OP_PROC:      /* macOS has no /proc */
		case OP_PROC_BIND:
		case OP_TMP:       /* no private /tmp: the shared one is writable */
		case OP_HELPER:    /* no entry helper: sandbox-exec runs the command */
		case OP_POLICY:    /* no private /tmp to put it in */
		case OP_SHOW:      /* never planned for Seatbelt (socket-plan.c) */
			break;
		}
	}
	/* Protected names that did not exist when the plan was made: the
	 * Linux jail can only warn after the fact; a name rule denies them. */
	for (size_t i = 0; i < pl->unguarded.n; i++) {
		strv_push(&guarded, pl->unguarded.v[i].value);
		add(&g->set[R_PROTECTED], pl->unguarded.v[i].value);
	}
	/* Directories whose new entries the Linux jail moves aside after the
	 * run (.git/modules): kjail becomes sandbox-exec, so nothing runs
	 * after; they are read-only instead. */
	for (size_t i = 0; i < pl->watched.n; i++) {
		strv_push(&guarded, pl->watched.v[i].value);
		add(&g->set[R_PROTECTED], pl->watched.v[i].value);
	}
	/* macOS's own credential store, the counterpart of the masked
	 * ~/.local/share/keyrings: the login keychain file the security tool
	 * and git-credential-osxkeychain read in-process. Never over a root,
	 * and never for a home of "/": /Library/Keychains is the system's. */
	for (size_t i = 0; h && h->defaults && i < ARRAY_SIZE(h->homes); i++) {
		if (!h->homes[i] || h->homes[i][0] != '/' || !h->homes[i][1])
			continue;
		_cleanup_free_ char *kc = path_join(h->homes[i], "Library/Keychains");
		if (!covers_a_root(&roots, kc) && strv_find(&keychains, kc) < 0) {
			strv_push(&keychains, kc);
			strv_push(&guarded, kc);
			add(&g->set[R_MASKED_DIR], kc);
		}
	}
	for (size_t i = 0; i < guarded.n; i++)
		pin_ancestors(&g->set[R_PIN], &roots, guarded.v[i]);
	if (h && h->user_tmp && h->user_tmp[0] == '/')
		add(&g->set[R_TMPDIR], h->user_tmp);
	for (int r = 0; r < R_COUNT; r++)
		sort_unique(&g->set[r]);
	strv_free(&roots);
	strv_free(&guarded);
	strv_free(&keychains);
}

/* ------------------------------------------------------------ rule text */

/* (KIND (param "ROLE_i")) for every path of role r, each on its own line,
 * inside (WRAP ...) when wrap is set. */
static void params_of(struct strbuf *f, const struct gen *g, enum role r, const char *kind,
		      const char *wrap)
{
	for (size_t i = 0; i < g->set[r].n; i++) {
		if (wrap)
			sb_addf(f, "\n  (%s (%s (param \"%s_%zu\")))", wrap, kind, role_name[r], i);
		else
			sb_addf(f, "\n  (%s (param \"%s_%zu\"))", kind, role_name[r], i);
	}
}

static void fixed(struct strbuf *f, const char *const *filters)
{
	for (; *filters; filters++)
		sb_addf(f, "\n  %s", *filters);
}

/* (HEAD FILTERS...), or nothing at all without filters: a bare
 * "(deny file-read*)" would deny every read, never what was meant. */
static void rule(struct gen *g, const char *head, struct strbuf *f)
{
	if (f->len)
		sb_addf(&g->text, "(%s%s)\n", head, f->s);
	sb_release(f);
}

/* The shared temporary directories, both spellings. */
static const char *const tmp_dirs[] = {
	"(subpath \"/private/tmp\")",
	"(subpath \"/tmp\")",
	"(subpath \"/private/var/tmp\")",
	"(subpath \"/var/tmp\")",
	NULL,
};

/* Where the host's own Unix sockets live in shared space: tmux and screen
 * (/private/tmp), launchd's per-session ssh-agent and X11 listeners
 * (/private/tmp/com.apple.launchd.*), editors' and IDEs' IPC and git
 * credential helpers (the per-user $TMPDIR under /private/var/folders). The
 * Linux jail has a private /tmp and masks $XDG_RUNTIME_DIR, so none of
 * these is reachable there; a connection to one would run code or hand out
 * credentials outside the jail. */
static const char *const shared_socket_dirs[] = {
	"(remote unix-socket (subpath \"/private/tmp\"))",
	"(remote unix-socket (subpath \"/tmp\"))",
	"(remote unix-socket (subpath \"/private/var/tmp\"))",
	"(remote unix-socket (subpath \"/var/tmp\"))",
	"(remote unix-socket (subpath \"/private/var/folders\"))",
	"(remote unix-socket (subpath \"/var/folders\"))",
	NULL,
};

/* The device nodes a shell and its tools write to. /dev/fd/N and
 * /dev/std* reopen a descriptor the process already holds, so they grant
 * nothing new; ttys* are pseudo-terminal replicas (the user's terminal and
 * any the command opens through /dev/ptmx). */
static const char *const devices[] = {
	"(literal \"/dev/null\")",
	"(literal \"/dev/zero\")",
	"(literal \"/dev/tty\")",
	"(literal \"/dev/dtracehelper\")",
	"(literal \"/dev/ptmx\")",
	"(literal \"/dev/stdout\")",
	"(literal \"/dev/stderr\")",
	"(regex #\"^/dev/ttys[0-9]+$\")",
	"(regex #\"^/dev/fd/[0-9]+$\")",
	NULL,
};

static void emit_process(struct gen *g)
{
	struct strbuf *t = &g->text;
	sb_adds(t, "\n;; Processes\n");
	/* Running programs is the point; children inherit the profile. */
	sb_adds(t, "(allow process-exec process-fork)\n");
	/* Set-user-ID and set-group-ID programs would run with more privilege
	 * than the jail's (the Linux jail sets no_new_privs): sudo with a cached
	 * ticket, and crontab, which installs a job cron runs outside it. */
	sb_adds(t, "(deny process-exec (require-any (file-mode #o4000) (file-mode #o2000)))\n");
	/* ps is set-user-ID root on macOS only to read other users' process
	 * tables; it acts on nothing, and agents use it. */
	sb_adds(t, "(allow process-exec (literal \"/bin/ps\"))\n");
	/* launchctl submits jobs that launchd runs outside the profile (Linux:
	 * the session bus that reaches systemd --user is masked). */
	sb_adds(t, "(deny process-exec (literal \"/bin/launchctl\"))\n");
	/* Apple Events drive other applications (Terminal's "do script" runs a
	 * command outside); LaunchServices opens files and apps outside. */
	sb_adds(t, "(deny appleevent-send)\n");
	sb_adds(t, "(deny lsopen)\n");
	/* cfprefsd writes preference files on the caller's behalf, outside
	 * every file rule; some (Terminal's startup command) run later. */
	sb_adds(t, "(deny user-preference-write)\n");
	/* Signals reach only the jail's own processes (Linux: PID namespace and
	 * the Landlock signal scope). */
	sb_adds(t, "(deny signal)\n");
	sb_adds(t, "(allow signal (target same-sandbox))\n");
}

static void emit_files(struct gen *g)
{
	struct strbuf *t = &g->text, f = STRBUF_INIT;
	sb_adds(t, "\n;; Files: the host is read-only\n");
	/* Reads stay allowed (allow default); writes are denied everywhere... */
	sb_adds(t, "(deny file-write*)\n");
	/* ...except the writable roots and the temporary directories (the Linux
	 * jail has its own /tmp; here the host's are shared, see the socket
	 * rules for what that must not open)... */
	params_of(&f, g, R_WRITABLE, "subpath", NULL);
	fixed(&f, tmp_dirs);
	params_of(&f, g, R_TMPDIR, "subpath", NULL);
	rule(g, "allow file-write*", &f);
	/* ...and the device nodes a shell needs. */
	fixed(&f, devices);
	rule(g, "allow file-write*", &f);
	/* Pinned directories: creating one (an absent .git in a workspace) or
	 * renaming or removing one (to rebuild a protected path under a name no
	 * rule covers) is denied; writing inside them is decided below. A
	 * rename is checked as an unlink of its source. */
	params_of(&f, g, R_PIN, "literal", NULL);
	rule(g, "deny file-write-create file-write-unlink", &f);
	/* Protected names: read-only even inside a writable root, whether or
	 * not they exist. No hard links to them either: a second name would be
	 * writable. */
	params_of(&f, g, R_PROTECTED, "subpath", NULL);
	rule(g, "deny file-write* file-link", &f);
	/* Masked: no reading (EPERM; Linux shows an empty file or directory),
	 * no writing, and no hard link or clone that would give the content a
	 * name the rule does not cover. */
	params_of(&f, g, R_MASKED_FILE, "literal", NULL);
	params_of(&f, g, R_MASKED_DIR, "subpath", NULL);
	rule(g, "deny file-read* file-write* file-link file-clone", &f);
	/* A writable root inside a masked directory: the last matching rule
	 * wins (Linux: bound inside the mask's tmpfs). */
	params_of(&f, g, R_INNER, "subpath", NULL);
	rule(g, "allow file-read* file-write*", &f);
}

static void emit_network(struct gen *g, const struct plan *pl)
{
	struct strbuf *t = &g->text, f = STRBUF_INIT;
	sb_adds(t, "\n;; Network and Unix sockets\n");
	if (!pl->network) {
		/* --no-network: no sockets but Unix ones (Linux: an empty network
		 * namespace). Loopback goes too: on macOS it is the host's own,
		 * with the host's services on it. */
		sb_adds(t, "(deny network*)\n");
		sb_adds(t, "(allow network-outbound (remote unix-socket))\n");
		/* A server of the jail's own accepts on its Unix socket; where it
		 * may bind that socket is decided next. */
		sb_adds(t, "(allow network-inbound (local unix-socket))\n");
	}
	if (pl->net == NET_ALLOWLIST) {
		/* --allow-host: out only to kjail's proxy, which listens on the
		 * host's loopback at the ports the jail's proxy variables name
		 * (seatbelt_run) and connects to the hosts allowed. */
		sb_adds(t, "(allow network-outbound (remote tcp \"localhost:" KJ_STR(PROXY_HTTP_PORT) "\"))\n");
		sb_adds(t, "(allow network-outbound (remote tcp \"localhost:" KJ_STR(PROXY_SOCKS_PORT) "\"))\n");
		/* A loopback rule (proxy/rules.h): here the jail's loopback is
		 * the host's, so its port is reached directly, not relayed
		 * (SBPL names no address but localhost: 127.0.0.1 and ::1) */
		for (size_t i = 0; i < pl->nallow; i++)
			if (allow_forwarded(&pl->allow[i]))
				sb_addf(t, "(allow network-outbound (remote tcp \"localhost:%d\"))\n",
					pl->allow[i].port);
	}
	/* Binding a Unix socket makes a file without any file-write check:
	 * only where the jail may write, never on a protected or masked name. */
	sb_adds(t, "(deny network-bind (local unix-socket))\n");
	params_of(&f, g, R_WRITABLE, "subpath", "local unix-socket");
	static const char *const tmp_binds[] = {
		"(local unix-socket (subpath \"/private/tmp\"))",
		"(local unix-socket (subpath \"/tmp\"))",
		"(local unix-socket (subpath \"/private/var/tmp\"))",
		"(local unix-socket (subpath \"/var/tmp\"))",
		NULL,
	};
	fixed(&f, tmp_binds);
	params_of(&f, g, R_TMPDIR, "subpath", "local unix-socket");
	rule(g, "allow network-bind", &f);
	params_of(&f, g, R_PROTECTED, "subpath", "local unix-socket");
	params_of(&f, g, R_MASKED_DIR, "subpath", "local unix-socket");
	rule(g, "deny network-bind", &f);
	params_of(&f, g, R_INNER, "subpath", "local unix-socket");
	rule(g, "allow network-bind", &f);
	/* Connecting: not to the host's sockets in shared temporary space... */
	fixed(&f, shared_socket_dirs);
	params_of(&f, g, R_TMPDIR, "subpath", "remote unix-socket");
	rule(g, "deny network-outbound", &f);
	/* ...but to the jail's own, in a writable root that lies there... */
	params_of(&f, g, R_WRITABLE, "subpath", "remote unix-socket");
	rule(g, "allow network-outbound", &f);
	/* ...and never to a masked one (the ssh agent, gpg-agent in ~/.gnupg,
	 * Docker's socket): a read rule does not govern connect(). Without a
	 * network, not the system resolver either (Linux: no DNS), whose
	 * queries would carry data out. */
	params_of(&f, g, R_MASKED_FILE, "subpath", "remote unix-socket");
	params_of(&f, g, R_MASKED_DIR, "subpath", "remote unix-socket");
	if (!pl->network) {
		static const char *const resolver[] = {
			"(remote unix-socket (subpath \"/private/var/run/mDNSResponder\"))",
			"(remote unix-socket (subpath \"/var/run/mDNSResponder\"))",
			NULL,
		};
		fixed(&f, resolver);
	}
	rule(g, "deny network-outbound", &f);
	/* --allow-socket: that one socket, whatever masks its directory (the
	 * last matching rule wins) */
	params_of(&f, g, R_SOCKET, "literal", "remote unix-socket");
	params_of(&f, g, R_INNER, "subpath", "remote unix-socket");
	rule(g, "allow network-outbound", &f);
	if (!pl->network) {
		/* Daemons that reach the network on a caller's behalf: the DNS
		 * service and background URL sessions. */
		sb_adds(t, "(deny mach-lookup\n  (global-name \"com.apple.dnssd.service\")\n"
		           "  (global-name \"com.apple.nsurlsessiond\"))\n");
	}
}

static void emit_services(struct gen *g, const struct seatbelt_host *h)
{
	if (!h || !h->defaults)
		return;
	sb_adds(&g->text, "\n;; Services\n");
	/* The clipboard (pbpaste, pbcopy): it holds what the user copied,
	 * passwords included, and what they will paste into a shell. Linux: the
	 * display sockets are out of reach. */
	sb_adds(&g->text, "(deny mach-lookup (global-name \"com.apple.pasteboard.1\"))\n");
}

char *seatbelt_profile(const struct plan *pl, const struct seatbelt_host *h, struct strv *params)
{
	struct gen g = { .text = STRBUF_INIT };
	collect(&g, pl, h);
	sb_adds(&g.text, "(version 1)\n"
		         ";; kjail: generated Seatbelt profile. Every path of the policy and the\n"
		         ";; host is a sandbox-exec -D parameter: this text depends only on how\n"
		         ";; many there are of each kind. Quoted paths are fixed system ones.\n"
		         "(allow default)\n");
	emit_process(&g);
	emit_files(&g);
	emit_network(&g, pl);
	emit_services(&g, h);
	for (int r = 0; r < R_COUNT; r++) {
		for (size_t i = 0; i < g.set[r].n; i++)
			strv_pushf(params, "%s_%zu=%s", role_name[r], i, g.set[r].v[i]);
		strv_free(&g.set[r]);
	}
	return sb_detach(&g.text);
}

/* The profile goes inline (-p), not through -f /dev/fd/N: it carries no
 * data worth hiding, the argv stays complete (what --print shows is exactly
 * what runs), and a descriptor for -f would have to survive exec and so
 * reach the jailed command too. */
void seatbelt_argv(const char *profile, const struct strv *params, char *const *cmd,
		   struct strv *argv)
{
	strv_pushv(argv, (const char *const[]){ SEATBELT_EXEC, "-p", profile, NULL });
	for (size_t i = 0; i < params->n; i++)
		strv_pushn(argv, "-D", params->v[i]);
	/* sandbox-exec stops at "--": a command named "-x" stays a command. */
	strv_push(argv, "--");
	for (; cmd && *cmd; cmd++)
		strv_push(argv, *cmd);
}

void seatbelt_build(const struct plan *pl, const struct seatbelt_host *h, char *const *cmd,
		    struct strv *argv)
{
	struct strv params = STRV_INIT;
	_cleanup_free_ char *profile = seatbelt_profile(pl, h, &params);
	seatbelt_argv(profile, &params, cmd, argv);
	strv_free(&params);
}
