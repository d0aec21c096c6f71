/* SPDX-License-Identifier: MIT */
/* Sandbox hints: read kjail's policy, recognise a denial in a command's
 * output, and say which rule most likely refused it and how to change that.
 * See hint.h. Only jail_policy_load() and the callbacks touch the system. */
#include "config.h"
#include "hint.h"
#include "hint-egress.h"
#include "model/chat.h"
#include "path.h"
#include "tools/text.h"
#include "util.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* What one hint computation may look at: the command's words, the output's
 * lines and bytes, and how many paths it resolves (each a few syscalls). */
#define MAX_WORDS 512
#define MAX_WORD 4096
#define MAX_LINE 4096
#define MAX_OUTPUT (1024u * 1024)
#define MAX_LOOKUPS 256
#define MAX_BASES 4
#define SHOW_COMMAND 200
#define SHOW_LINE 300

/* ------------------------------------------------------------- lookups */

/* One hint computation: the policy, the environment, the budget. */
struct scan {
	const struct jail_policy *p;
	const struct hint_env *env;
	const char *bases[MAX_BASES + 1]; /* the cwd, then "cd DIR" targets */
	char *owned[MAX_BASES];
	size_t nbases, nowned;
	unsigned lookups;
};

/* WORD with "~" and "$HOME" expanded; NULL when it cannot be (no home). */
static char *expand_home(const char *word, const char *home)
{
	static const char *const forms[] = { "~", "$HOME", "${HOME}" };
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		size_t n = strlen(forms[i]);
		if (strncmp(word, forms[i], n) == 0 && (word[n] == '\0' || word[n] == '/')) {
			if (!home || home[0] != '/')
				return NULL;
			return xasprintf("%s%s", home, word + n);
		}
	}
	if (word[0] == '~' || word[0] == '$')
		return NULL; /* ~user, other variables: not guessed at */
	return xstrdup(word);
}

/* WORD as a real absolute path, taken from BASE when relative. */
static char *real_path(struct scan *s, const char *word, const char *base)
{
	if (s->lookups >= MAX_LOOKUPS || !*word || strlen(word) >= MAX_WORD)
		return NULL;
	_cleanup_free_ char *w = expand_home(word, s->env->home);
	if (!w || (w[0] != '/' && (!base || base[0] != '/')))
		return NULL;
	s->lookups++;
	char *clean = path_normalize(w, base);
	if (!clean || !s->env->resolve)
		return clean;
	char *real = s->env->resolve(clean);
	if (!real)
		return clean;
	free(clean);
	return real;
}

/* The first base under which WORD names a path whose mount passes WANT;
 * its real path in *out. */
static const struct jail_mount *lookup(struct scan *s, const char *word,
				       bool (*want)(const struct jail_mount *), char **out)
{
	*out = NULL;
	bool relative = word[0] != '/' && word[0] != '~' && word[0] != '$';
	for (size_t i = 0; i < (relative ? s->nbases : 1); i++) {
		char *real = real_path(s, word, s->bases[i]);
		if (!real)
			continue;
		const struct jail_mount *m = jail_verdict_for(s->p, real);
		if (m && want(m)) {
			*out = real;
			return m;
		}
		free(real);
	}
	return NULL;
}

/* A mount where the jail refuses writes: read-only or masked. */
static bool is_refusing(const struct jail_mount *m)
{
	return strcmp(m->verdict, "read-only") == 0 || strcmp(m->verdict, "masked") == 0;
}

/* Any mount but a writable one: the jail's private /tmp, /dev and /proc
 * take writes, so a read-only file system there is the jail's too (its
 * /proc/sys), where a permission error is only the kernel's usual one. */
static bool is_not_writable(const struct jail_mount *m)
{
	return strcmp(m->verdict, "writable") != 0;
}

static bool is_protected(const struct jail_mount *m)
{
	return str_has_prefix(m->rule, "protected");
}

static bool is_masked(const struct jail_mount *m)
{
	return strcmp(m->verdict, "masked") == 0;
}

/* --------------------------------------------------------------- words */

struct words {
	char **v;
	size_t n;
};

static void words_free(struct words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	*w = (struct words){ 0 };
}

static void words_push(struct words *w, const char *s, size_t n)
{
	if (n == 0 || n >= MAX_WORD || w->n >= MAX_WORDS)
		return;
	w->v = xreallocarray(w->v, w->n + 1, sizeof *w->v);
	/* s is a scratch buffer, not NUL-terminated: copy exactly n bytes */
	char *word = xmalloc(n + 1);
	memcpy(word, s, n);
	word[n] = '\0';
	w->v[w->n++] = word;
}

/* The words of a shell command, roughly as the shell would see them:
 * quotes removed, backslashes applied, operators and substitutions as
 * separators. Good enough to find the paths a command names. */
static void shell_words(const char *cmd, struct words *out)
{
	size_t cap = strlen(cmd) + 1;
	_cleanup_free_ char *buf = xmalloc(cap);
	size_t n = 0;
	bool in_word = false;
	for (const char *c = cmd; *c && out->n < MAX_WORDS; c++) {
		if (*c == '\'') {
			in_word = true;
			for (c++; *c && *c != '\''; c++)
				buf[n++] = *c;
			if (!*c)
				break;
		} else if (*c == '"') {
			in_word = true;
			for (c++; *c && *c != '"'; c++) {
				if (*c == '\\' && c[1] && strchr("\"\\$`", c[1]))
					c++;
				buf[n++] = *c;
			}
			if (!*c)
				break;
		} else if (*c == '\\' && c[1]) {
			in_word = true;
			buf[n++] = *++c;
		} else if (strchr(" \t\n\r;|&<>()`", *c)) {
			if (in_word)
				words_push(out, buf, n);
			n = 0;
			in_word = false;
		} else {
			in_word = true;
			buf[n++] = *c;
		}
	}
	if (in_word)
		words_push(out, buf, n);
}

static void scan_init(struct scan *s, const struct jail_policy *p, const struct hint_env *env,
		      const struct words *w)
{
	*s = (struct scan){ .p = p, .env = env };
	if (env->cwd && env->cwd[0] == '/')
		s->bases[s->nbases++] = env->cwd;
	/* "cd DIR && touch x" refuses DIR/x, which the message calls "x". */
	for (size_t i = 0; i + 1 < w->n && s->nowned < MAX_BASES; i++) {
		if (strcmp(w->v[i], "cd") != 0)
			continue;
		char *dir = real_path(s, w->v[i + 1], env->cwd);
		if (dir)
			s->bases[s->nbases++] = s->owned[s->nowned++] = dir;
	}
}

static void scan_clear(struct scan *s)
{
	for (size_t i = 0; i < s->nowned; i++)
		free(s->owned[i]);
}

/* --------------------------------------------------------------- lines */

/* Is NEEDLE in LINE: in any case, except an errno or error code name (all
 * capitals: "EROFS", "ENOTFOUND"), which must stand as a word. */
static bool has(const char *line, const char *needle)
{
	bool code = true;
	for (const char *c = needle; *c && code; c++)
		code = (*c >= 'A' && *c <= 'Z') || *c == '_';
	if (!code)
		return strcasestr(line, needle) != NULL;
	size_t n = strlen(needle);
	for (const char *p = strstr(line, needle); p; p = strstr(p + 1, needle)) {
		unsigned char before = p > line ? (unsigned char)p[-1] : ' ';
		unsigned char after = (unsigned char)p[n];
		bool alnum_b = (before | 0x20) >= 'a' && (before | 0x20) <= 'z';
		bool alnum_a = (after | 0x20) >= 'a' && (after | 0x20) <= 'z';
		if (!alnum_b && !alnum_a && !(before >= '0' && before <= '9') && after != '_')
			return true;
	}
	return false;
}

static bool has_any(const char *line, const char *const *needles)
{
	for (; *needles; needles++)
		if (has(line, *needles))
			return true;
	return false;
}

/* The error a line reports, as far as a refused write goes. */
/* REF_EBUSY: git renames its lock file onto the file it writes, and onto
 * a protected one (a read-only mount) the kernel says EBUSY */
enum refusal { REF_NONE, REF_EROFS, REF_EACCES, REF_EPERM, REF_EBUSY };

static enum refusal refusal_of(const char *line, const char **at)
{
	static const struct {
		const char *text;
		enum refusal r;
	} sigs[] = {
		{ "read-only file system", REF_EROFS },
		{ "EROFS", REF_EROFS },
		{ "permission denied", REF_EACCES },
		{ "EACCES", REF_EACCES },
		{ "operation not permitted", REF_EPERM },
		{ "EPERM", REF_EPERM },
		{ "device or resource busy", REF_EBUSY },
		{ "EBUSY", REF_EBUSY },
	};
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
		if (!has(line, sigs[i].text))
			continue;
		/* Where the message starts, for the field before it. */
		*at = sigs[i].text[0] == 'E' ? strstr(line, sigs[i].text)
					     : strcasestr(line, sigs[i].text);
		return sigs[i].r;
	}
	return REF_NONE;
}

/* Words that say an EACCES or EPERM came from changing something, not
 * from reading it (without a way to ask the file system, the only clue). */
static bool says_write(const char *line)
{
	static const char *const verbs[] = {
		"cannot touch", "cannot create", "cannot make", "cannot mkdir", "cannot remove",
		"cannot move", "cannot rename", "cannot overwrite", "cannot link", "cannot write",
		"cannot change", "cannot set", "for writing", "changing ", "setting ",
		"failed to create", "failed to write", "failed to remove", "failed to rename",
		"could not create", "could not write", "could not lock", "could not remove",
		"unable to create", "unable to write", "unable to remove", "can't create",
		"can't write", "can't remove", "mkdir", "unlink", "rmdir", "rename", "symlink",
		"chmod", "chown", "utime", NULL,
	};
	return has_any(line, verbs);
}

static bool says_network(const char *line)
{
	static const char *const sigs[] = {
		"could not resolve host", "could not resolve hostname",
		"temporary failure in name resolution", "name or service not known",
		"nodename nor servname", "no address associated with hostname",
		"network is unreachable", "connection refused", "no route to host",
		"ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH",
		"getaddrinfo", "failed to resolve", "unable to resolve host",
		"could not connect to server", NULL,
	};
	return has_any(line, sigs);
}

/* A line that may name a path a program found empty or missing. */
static bool says_trouble(const char *line)
{
	static const char *const sigs[] = {
		"no such file", "errno", "empty", "not found", "cannot", "can't", "unable",
		"failed", "error", "missing", NULL,
	};
	return has_any(line, sigs);
}

static bool word_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c >= 0x80;
}

/* The quoted strings of a line, as messages quote paths: 'x', "x", `x',
 * and the typographic forms. An apostrophe inside a word ("can't") opens
 * nothing. */
static void quoted(const char *line, struct words *out)
{
	static const struct {
		const char *open, *close;
	} q[] = {
		{ "'", "'" }, { "\"", "\"" }, { "`", "'" },
		{ "\xe2\x80\x98", "\xe2\x80\x99" }, /* ‘ ’ */
		{ "\xe2\x80\x9c", "\xe2\x80\x9d" }, /* “ ” */
	};
	for (const char *c = line; *c; c++) {
		if (c > line && word_char((unsigned char)c[-1]))
			continue;
		for (size_t i = 0; i < ARRAY_SIZE(q); i++) {
			size_t ol = strlen(q[i].open), cl = strlen(q[i].close);
			if (strncmp(c, q[i].open, ol) != 0)
				continue;
			const char *start = c + ol, *end = start;
			while ((end = strstr(end, q[i].close)) && word_char((unsigned char)end[cl]))
				end++;
			if (!end)
				break;
			words_push(out, start, (size_t)(end - start));
			c = end + cl - 1;
			break;
		}
	}
}

/* The last word of the field just before ": ERROR" ("sh: 1: cannot create
 * /etc/x: Read-only file system", "bash: line 1: /etc/x: ..."). */
static void field_before(const char *line, const char *at, struct words *out)
{
	const char *end = at;
	while (end > line && end[-1] == ' ')
		end--;
	if (end == line || end[-1] != ':')
		return;
	end--;
	const char *start = end;
	while (start > line && start[-1] != ' ')
		start--;
	if (start < end && !strchr("'\"`", *start))
		words_push(out, start, (size_t)(end - start));
}

/* Unquoted tokens that look like paths (absolute, "~/...", or with a '/'),
 * without the punctuation around them; no URLs. */
static void path_tokens(const char *line, struct words *out, bool absolute_only)
{
	const char *c = line;
	while (*c) {
		while (*c == ' ' || *c == '\t')
			c++;
		const char *s = c;
		while (*c && *c != ' ' && *c != '\t')
			c++;
		const char *e = c;
		while (s < e && strchr("([{<'\"`=", *s))
			s++;
		while (e > s && strchr(")]}>'\"`:,;.", e[-1]))
			e--;
		if (s == e || memmem(s, (size_t)(e - s), "://", 3))
			continue;
		bool abs = *s == '/' || *s == '~' || (e - s >= 5 && strncmp(s, "$HOME", 5) == 0);
		if (abs || (!absolute_only && memchr(s, '/', (size_t)(e - s))))
			words_push(out, s, (size_t)(e - s));
	}
}

/* ---------------------------------------------------------------- text */

/* S on one line, printable (valid UTF-8, no control characters: it is
 * shown on a terminal too), at most MAX bytes. */
static char *one_line(const char *s, size_t max)
{
	size_t n = strlen(s);
	bool cut = n > max;
	if (cut)
		n = utf8_cut(s, max);
	char *o = xmalloc(n + 4);
	for (size_t i = 0; i < n; i++)
		o[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? ' ' : s[i];
	o[n] = '\0';
	utf8_scrub(o, n);
	unsigned char *u = (unsigned char *)o;
	for (size_t i = 0; i + 1 < n; i++)
		if (u[i] == 0xc2 && u[i + 1] >= 0x80 && u[i + 1] <= 0x9f)
			u[i] = u[i + 1] = '?'; /* C1 controls, U+0080..U+009F */
	while (n && o[n - 1] == ' ')
		n--;
	size_t lead = strspn(o, " ");
	memmove(o, o + lead, n - lead);
	strcpy(o + n - lead, cut ? "..." : "");
	return o;
}

static bool origin_is_file_line(const char *origin)
{
	const char *colon = strrchr(origin, ':');
	if (origin[0] != '/' || !colon || !colon[1])
		return false;
	for (const char *c = colon + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

struct finding {
	const struct jail_mount *m;  /* NULL for the network */
	char *path;                  /* the real path refused */
	char *observed;
	bool write;                  /* a write refused, else a read of a mask */
	char *dest;                  /* under an allowlist: "HOST:PORT" refused, or NULL */
};

static char *fix_dir(const struct hint_env *env, const char *path)
{
	char *d = path_dirname(path);
	while (env->is_dir && strcmp(d, "/") != 0 && !env->is_dir(d)) {
		char *up = path_dirname(d);
		free(d);
		d = up;
	}
	return d;
}

/* Would making DIR writable (for a write to PATH) hand the agent what runs
 * later as root or as the user: system configuration (/etc, sudoers.d),
 * programs, shell startup files (every directory holding $HOME holds
 * them), ~/.ssh? Such a hint never suggests --writable. */
static bool widening_is_dangerous(const struct hint_env *env, const char *dir, const char *path)
{
	static const char *const system[] = { "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32",
					      "/lib64", "/boot", "/root", "/var/spool/cron",
					      "/var/lib/systemd" };
	static const char *const in_home[] = { ".ssh", ".config/autostart", ".config/systemd",
					       ".config/environment.d", ".local/bin", ".gnupg" };
	static const char *const startup[] = { ".bashrc", ".bash_profile", ".bash_login",
					       ".bash_logout", ".profile", ".zshrc", ".zshenv",
					       ".zprofile", ".zlogin", ".login", ".cshrc",
					       ".tcshrc", ".kshrc", ".xprofile", ".xsession",
					       ".xinitrc", ".pam_environment" };
	if (strcmp(dir, "/") == 0)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(system); i++)
		if (path_is_under(dir, system[i]))
			return true;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < ARRAY_SIZE(startup); i++)
		if (strcmp(base, startup[i]) == 0)
			return true;
	if (!env->home || env->home[0] != '/')
		return false;
	if (path_is_under(env->home, dir))
		return true;   /* $HOME itself or above it: its startup files */
	for (size_t i = 0; i < ARRAY_SIZE(in_home); i++) {
		_cleanup_free_ char *p = path_join(env->home, in_home[i]);
		if (path_is_under(dir, p))
			return true;
	}
	return false;
}

/* The "why" and "fix" lines for a refused path. */
static void explain_mount(const struct hint_env *env, const struct finding *f, char **why,
			  char **fix)
{
	const struct jail_mount *m = f->m;
	const char *outside = "or run it outside the jail yourself";
	if (strcmp(m->verdict, "masked") == 0) {
		*why = xasprintf("%s is masked in the jail: %s%s", m->path,
				 m->exact ? "it reads as empty"
					  : "a file there reads as empty, a directory lists nothing",
				 f->write ? ", and nothing can be written" : "");
		if (strcmp(m->origin, "--deny-read") == 0 || strcmp(m->origin, "-r") == 0)
			*fix = xasprintf("kjail without --deny-read %s, %s", m->path, outside);
		else if (origin_is_file_line(m->origin))
			*fix = xasprintf("remove the deny-read for %s at %s, %s", m->path, m->origin,
					 outside);
		else if (str_has_prefix(m->origin, "built-in"))
			*fix = xasprintf("kjail --no-defaults (it drops every built-in mask and the "
					 "environment scrub, not only this one), or move what you "
					 "need out of %s, %s", m->path, outside);
		else
			*fix = xasprintf("kjail without the rule that masks %s (%s), %s", m->path,
					 m->origin, outside);
	} else if (str_has_prefix(m->rule, "protected")) {
		*why = xasprintf("%s is protected on purpose: hooks and config there run later, "
				 "outside the jail, so the jail never lets them change", m->path);
		if (strstr(m->rule, "git config"))
			*fix = xasprintf("none inside the jail: git -c NAME=VALUE (or GIT_AUTHOR_NAME "
					 "and the like) for one command, or make this change outside "
					 "the jail yourself");
		else
			*fix = xasprintf("none inside the jail: make this change outside the jail "
					 "yourself");
	} else if (strcmp(m->verdict, "read-only") == 0 && strcmp(m->rule, "read-only") == 0 &&
		   strcmp(m->origin, "host root") == 0) {
		_cleanup_free_ char *dir = fix_dir(env, f->path);
		if (widening_is_dangerous(env, dir, f->path)) {
			*why = xasprintf("%s holds what runs later as root or as you (system "
					 "configuration, programs, shell startup files, ~/.ssh): "
					 "the jail keeps it read-only on purpose", dir);
			*fix = xstrdup("none inside the jail: make this change outside the jail "
				       "yourself, if it is one you want");
		} else {
			*why = NULL;
			*fix = xasprintf("kjail --writable %s, %s", dir, outside);
		}
	} else {
		*why = xasprintf("%s is %s in the jail (%s)", m->path, m->verdict, m->origin);
		*fix = xasprintf("run it outside the jail yourself");
	}
}

/* The lines for a connection kjail's proxy refused. */
static void hint_egress_render(const struct jail_policy *p, const char *dest, char **rule,
			       char **why, char **fix)
{
	*rule = xasprintf("egress allowlist (%s)",
			  p->network_origin ? p->network_origin : "--allow-host");
	*why = xasprintf("the jail reaches the network only through kjail's proxy, which "
			 "connects only to the hosts --allow-host names%s%s%s",
			 dest ? "; " : "", dest ? dest : "", dest ? " is not one of them" : "");
	_cleanup_free_ char *v = dest ? hint_egress_flag_value(dest) : xstrdup("HOST");
	*fix = xasprintf("kjail --allow-host %s (or allow-host = %s in the config), if the task "
			 "needs it", v, v);
}

static char *render(const struct jail_policy *p, const struct hint_env *env,
		    const char *command, int exit_status, const struct finding *f)
{
	_cleanup_free_ char *cmd = one_line(command, SHOW_COMMAND);
	_cleanup_free_ char *exit_text = exit_status >= 0 ? xasprintf("%d", exit_status)
							  : xstrdup("unknown (still running)");
	_cleanup_free_ char *rule = NULL, *why = NULL, *fix = NULL;
	if (f->m) {
		rule = xasprintf("%s (%s)", f->m->rule, f->m->origin);
		explain_mount(env, f, &why, &fix);
	} else if (p->allowlist) {
		hint_egress_render(p, f->dest, &rule, &why, &fix);
	} else {
		const char *origin = p->network_origin ? p->network_origin : "origin not given";
		rule = xasprintf("no network (%s)", origin);
		why = xstrdup("the jail has its own network namespace: loopback only, no DNS, "
			      "nothing on the host's loopback");
		if (strcmp(origin, "--no-network") == 0 || strcmp(origin, "-n") == 0)
			fix = xstrdup("kjail without --no-network, or serve a local service on a "
				      "Unix socket in the workspace");
		else
			fix = xasprintf("kjail --network (over %s), or serve a local service on a "
					"Unix socket in the workspace", origin);
	}
	/* Each line printable on its own: paths and origins come from a file
	 * and the output from a command, and a newline in one must not make
	 * a line that is not the hint's. */
	_cleanup_free_ char *head = xasprintf("command='%s'", cmd);
	_cleanup_free_ char *ex = xasprintf("exit: %s", exit_text);
	_cleanup_free_ char *obs = xasprintf("observed: %s", f->observed);
	_cleanup_free_ char *lr = xasprintf("likely rule: %s", rule);
	_cleanup_free_ char *wy = why ? xasprintf("why: %s", why) : NULL;
	_cleanup_free_ char *fx = xasprintf("fix: %s", fix);
	const char *lines[] = { head, ex, obs, lr, wy, fx };
	size_t cap = 1, len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++)
		cap += lines[i] ? strlen(lines[i]) + strlen(HINT_HEAD) + 4 : 0;
	char *out = xmalloc(cap);
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		if (!lines[i])
			continue;
		_cleanup_free_ char *l = one_line(lines[i], cap);
		len += (size_t)snprintf(out + len, cap - len, "%s%s\n", i ? "  " : HINT_HEAD, l);
	}
	return out;
}

/* ---------------------------------------------------------- signatures */

/* Does LINE report a write the jail refused? */
static bool refused_write(struct scan *s, const char *line, struct finding *f)
{
	const char *at;
	enum refusal r = refusal_of(line, &at);
	if (r == REF_NONE)
		return false;
	if (r != REF_EROFS && r != REF_EBUSY && !s->env->write_errno && !says_write(line))
		return false;
	struct words cand = { 0 };
	quoted(line, &cand);
	field_before(line, at, &cand);
	path_tokens(line, &cand, false);
	bool found = false;
	for (size_t i = 0; i < cand.n && !found; i++) {
		char *real;
		const struct jail_mount *m =
			lookup(s, cand.v[i], r == REF_EROFS ? is_not_writable
					     : r == REF_EBUSY ? is_protected : is_refusing, &real);
		if (!m)
			continue;
		/* EACCES or EPERM on a read-only mount: the jail's only when the
		 * mount, not the file's mode, is what stops a write there. */
		if (r != REF_EROFS && r != REF_EBUSY && s->env->write_errno &&
		    s->env->write_errno(real) != EROFS) {
			free(real);
			continue;
		}
		*f = (struct finding){ m, real, one_line(line, SHOW_LINE), true, NULL };
		found = true;
	}
	words_free(&cand);
	return found;
}

/* The first line of OUTPUT naming NEEDLE (NULL: any line with text). */
static char *line_naming(const char *output, const char *needle)
{
	for (const char *l = output; *l;) {
		size_t n = strcspn(l, "\n");
		_cleanup_free_ char *line = xstrndup(l, n < MAX_LINE ? n : MAX_LINE);
		if (needle ? strstr(line, needle) != NULL : line[strspn(line, " \t\r")] != '\0')
			return one_line(line, SHOW_LINE);
		l += n + (l[n] == '\n');
	}
	return NULL;
}

/* Does the command name a masked path? */
static bool masked_word(struct scan *s, const struct words *w, const char *output,
			struct finding *f)
{
	for (size_t i = 0; i < w->n; i++) {
		const char *word = w->v[i];
		if (word[0] == '-') {
			word = strchr(word, '=');
			if (!word)
				continue;
			word++;
		} else if (strchr(word, '=') && word[0] != '/' && word[0] != '~') {
			word = strchr(word, '=') + 1; /* VAR=PATH */
		}
		if (!*word)
			continue;
		char *real;
		const struct jail_mount *m = lookup(s, word, is_masked, &real);
		if (!m)
			continue;
		char *seen = line_naming(output, real);
		if (!seen)
			seen = line_naming(output, word);
		if (!seen)
			seen = output[strspn(output, " \t\r\n")] ? line_naming(output, NULL)
								  : xstrdup("(no output)");
		*f = (struct finding){ m, real, seen, false, NULL };
		return true;
	}
	return false;
}

/* Does a line of the output name a masked path it found empty or missing? */
static bool masked_in_line(struct scan *s, const char *line, struct finding *f)
{
	if (!says_trouble(line))
		return false;
	struct words cand = { 0 };
	quoted(line, &cand);
	path_tokens(line, &cand, true);
	bool found = false;
	for (size_t i = 0; i < cand.n && !found; i++) {
		const char *c = cand.v[i];
		if (c[0] != '/' && c[0] != '~' && c[0] != '$')
			continue;
		char *real;
		const struct jail_mount *m = lookup(s, c, is_masked, &real);
		if (m) {
			*f = (struct finding){ m, real, one_line(line, SHOW_LINE), false, NULL };
			found = true;
		}
	}
	words_free(&cand);
	return found;
}

enum pass { PASS_WRITE, PASS_NETWORK, PASS_EGRESS, PASS_MASK, PASS_COUNT };

/* The last refusal in the proxy's log, when the output does not name it. */
static char *egress_from_log(const struct jail_policy *p, const struct hint_env *env)
{
	size_t len = 0;
	_cleanup_free_ char *log = p->net_log && env->read_log ? env->read_log(p->net_log, &len)
							       : NULL;
	return log ? hint_egress_last_refused(log, len) : NULL;
}

char *hint_for(const struct jail_policy *p, const struct hint_env *env, const char *command,
	       int exit_status, const char *output)
{
	if (!p || !env || !command)
		return NULL;
	if (!output)
		output = "";
	size_t outlen = strnlen(output, MAX_OUTPUT);
	struct words w = { 0 };
	shell_words(command, &w);
	struct scan s;
	scan_init(&s, p, env, &w);
	struct finding f = { 0 };
	bool found = false;
	bool no_network = p->network_known && !p->network && !p->allowlist;
	bool blank = output[strspn(output, " \t\r\n")] == '\0';
	for (enum pass pass = PASS_WRITE; pass < PASS_COUNT && !found; pass++) {
		if ((pass == PASS_NETWORK && !no_network) || (pass == PASS_EGRESS && !p->allowlist))
			continue;
		/* a command that succeeded gets no write or network hint, whatever
		 * it printed; a masked read succeeds by design (it reads empty), so
		 * after a success only an empty output is one: what printed text
		 * read something, from that path or another */
		if (exit_status == 0 && (pass != PASS_MASK || !blank))
			continue;
		if (pass == PASS_MASK && masked_word(&s, &w, output, &f)) {
			found = true;
			break;
		}
		for (const char *l = output; l < output + outlen && !found;) {
			size_t n = strcspn(l, "\n");
			if ((size_t)(l - output) + n > outlen)
				n = outlen - (size_t)(l - output);
			_cleanup_free_ char *line = xstrndup(l, n < MAX_LINE ? n : MAX_LINE);
			l += n + (l[n] == '\n');
			if (pass == PASS_WRITE)
				found = refused_write(&s, line, &f);
			else if (pass == PASS_NETWORK && says_network(line)) {
				f = (struct finding){ NULL, NULL, one_line(line, SHOW_LINE), false, NULL };
				found = true;
			} else if (pass == PASS_EGRESS && hint_egress_refused(line, &f.dest)) {
				f.observed = one_line(line, SHOW_LINE);
				if (!f.dest)
					f.dest = egress_from_log(p, env);
				found = true;
			} else if (pass == PASS_MASK)
				found = masked_in_line(&s, line, &f);
		}
	}
	char *hint = found ? render(p, env, command, exit_status, &f) : NULL;
	free(f.path);
	free(f.dest);
	free(f.observed);
	scan_clear(&s);
	words_free(&w);
	return hint;
}

/* -------------------------------------------------------------- split */

size_t hint_split(const char *text)
{
	if (!text)
		return (size_t)-1;
	static const char sep[] = "\n\n" HINT_HEAD;
	const char *last = NULL;
	for (const char *c = strstr(text, sep); c; c = strstr(c + 1, sep))
		last = c;
	if (!last)
		return (size_t)-1;
	/* The block: its head line, then lines indented by two spaces, none
	 * empty, to the end of the text. */
	const char *l = last + 2;
	l += strcspn(l, "\n");
	while (*l == '\n' && l[1]) {
		l++;
		if (strncmp(l, "  ", 2) != 0 || l[2] == ' ' || l[2] == '\n' || !l[2])
			return (size_t)-1;
		l += strcspn(l, "\n");
	}
	return (size_t)(last - text);
}
