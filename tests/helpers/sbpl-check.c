/* SPDX-License-Identifier: MIT */
/* sbpl-check: read a sandbox-exec command line as kjail makes it and check
 * its Seatbelt profile. Exits 0 when it is well formed, 1 with one line
 * naming the fault otherwise, 2 on a usage error.
 *
 *   sbpl-check [--show=WHAT] [--] [SANDBOX-EXEC] -p PROFILE [-D NAME=VALUE]... -- COMMAND...
 *   sbpl-check --json [--show=WHAT] < kjail-print-json-output
 *
 * Checked: the forms balance; strings and regex literals are terminated,
 * carry no raw control characters and use only known escapes; the first
 * form is (version 1); every rule is (allow|deny OPERATION... FILTER...)
 * with operations and filters from the list below, each filter with the
 * right arguments; every (param "X") names a -D parameter and every -D
 * parameter is used; parameter names are unique; the command is there. With
 * --json, the object's argv is what is checked, and its "profile" and
 * "params" must agree with that argv.
 *
 * --show=profile prints the profile, --show=names the parameter names (one
 * a line), --show=param:NAME the value of one parameter (no newline added).
 *
 * This is a reader for what kjail emits, deliberately narrower than SBPL:
 * anything else is reported, so a generator change that reaches for a new
 * operation or filter has to be added here on purpose. */
#include "config.h"
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const operations[] = {
	"default", "file-read*", "file-write*", "file-write-create", "file-write-unlink",
	"file-link", "file-clone", "network*", "network-outbound", "network-bind", "network-inbound",
	"process-exec", "process-fork", "signal", "appleevent-send", "lsopen",
	"user-preference-write", "mach-lookup", NULL,
};

static __attribute__((noreturn, format(printf, 1, 2))) void bad(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("sbpl-check: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static __attribute__((noreturn)) void usage(const char *why)
{
	fprintf(stderr, "sbpl-check: %s\nusage: sbpl-check [--json] [--show=profile|names|param:NAME] "
			"[--] [sandbox-exec] -p PROFILE [-D NAME=VALUE]... -- COMMAND...\n",
		why);
	exit(2);
}

static void *xalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p) {
		fputs("sbpl-check: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

/* ------------------------------------------------------------ reader */

enum kind { N_LIST, N_SYM, N_STR, N_REGEX, N_OCTAL, N_NUM };

struct node {
	enum kind k;
	char *s;          /* symbol, decoded string or regex source, digits */
	struct node **kid;
	size_t n;
	int line;
};

struct reader {
	const char *p;
	int line;
};

static void free_node(struct node *x)
{
	for (size_t i = 0; i < x->n; i++)
		free_node(x->kid[i]);
	free(x->kid);
	free(x->s);
	free(x);
}

static void skip_space(struct reader *r)
{
	for (;;) {
		if (*r->p == '\n') {
			r->line++;
			r->p++;
		} else if (*r->p == ' ' || *r->p == '\t' || *r->p == '\r') {
			r->p++;
		} else if (*r->p == ';') {
			while (*r->p && *r->p != '\n')
				r->p++;
		} else {
			return;
		}
	}
}

/* "..." (escapes \\ \" \n \t) or #"..." (a backslash keeps the next
 * character, as regex source). Control characters must be escaped. */
static char *read_string(struct reader *r, bool regex)
{
	int line = r->line;
	size_t cap = 16, n = 0;
	char *out = xalloc(cap);
	r->p++; /* the opening quote */
	for (;;) {
		unsigned char c = (unsigned char)*r->p;
		if (c == '\0')
			bad("line %d: %s not terminated", line, regex ? "regex literal" : "string");
		if (c == '"') {
			r->p++;
			break;
		}
		if (c < 0x20 || c == 0x7f)
			bad("line %d: raw control character 0x%02x in a %s", r->line, c,
			    regex ? "regex literal" : "string");
		if (n + 3 > cap) {
			cap *= 2;
			out = realloc(out, cap);
			if (!out)
				usage("out of memory");
		}
		if (c == '\\') {
			unsigned char e = (unsigned char)r->p[1];
			if (regex) {
				if (e < 0x20 || e == 0x7f)
					bad("line %d: bad escape in a regex literal", r->line);
				out[n++] = '\\';
				out[n++] = (char)e;
			} else if (e == '\\' || e == '"') {
				out[n++] = (char)e;
			} else if (e == 'n') {
				out[n++] = '\n';
			} else if (e == 't') {
				out[n++] = '\t';
			} else {
				bad("line %d: unknown escape \\%c in a string", r->line,
				    e >= 0x20 && e < 0x7f ? e : '?');
			}
			r->p += 2;
			continue;
		}
		out[n++] = (char)c;
		r->p++;
	}
	out[n] = '\0';
	return out;
}

static bool delimiter(char c)
{
	return c == '\0' || c == '(' || c == ')' || c == '"' || c == ';' || c == ' ' ||
	       c == '\t' || c == '\n' || c == '\r';
}

static struct node *read_form(struct reader *r);

static struct node *read_list(struct reader *r)
{
	struct node *l = xalloc(sizeof *l);
	l->k = N_LIST;
	l->line = r->line;
	r->p++; /* ( */
	size_t cap = 0;
	for (;;) {
		skip_space(r);
		if (*r->p == '\0')
			bad("line %d: '(' never closed", l->line);
		if (*r->p == ')') {
			r->p++;
			return l;
		}
		if (l->n == cap) {
			cap = cap ? cap * 2 : 4;
			l->kid = realloc(l->kid, cap * sizeof *l->kid);
			if (!l->kid)
				usage("out of memory");
		}
		l->kid[l->n++] = read_form(r);
	}
}

static struct node *read_form(struct reader *r)
{
	skip_space(r);
	const char *start = r->p;
	struct node *x = xalloc(sizeof *x);
	x->line = r->line;
	if (*r->p == '(') {
		free(x);
		return read_list(r);
	}
	if (*r->p == ')')
		bad("line %d: ')' without its '('", r->line);
	if (*r->p == '"') {
		x->k = N_STR;
		x->s = read_string(r, false);
		return x;
	}
	if (r->p[0] == '#' && r->p[1] == '"') {
		r->p++;
		x->k = N_REGEX;
		x->s = read_string(r, true);
		return x;
	}
	while (!delimiter(*r->p))
		r->p++;
	if (r->p == start)
		bad("line %d: unexpected character", r->line);
	x->s = strndup(start, (size_t)(r->p - start));
	if (!x->s)
		usage("out of memory");
	if (*r->p == '"')
		bad("line %d: a string runs into '%s'", r->line, x->s);
	if (x->s[0] == '#') {
		if (x->s[1] != 'o' || !x->s[2] || strspn(x->s + 2, "01234567") != strlen(x->s + 2))
			bad("line %d: unknown # form '%s'", x->line, x->s);
		x->k = N_OCTAL;
	} else if (strspn(x->s, "0123456789") == strlen(x->s)) {
		x->k = N_NUM;
	} else {
		x->k = N_SYM;
	}
	return x;
}

/* ----------------------------------------------------------- checker */

struct param {
	char *name, *value;
	bool used;
};

struct check {
	struct param *p;
	size_t np;
};

static bool is_sym(const struct node *x, const char *s)
{
	return x->k == N_SYM && strcmp(x->s, s) == 0;
}

static const char *head(const struct node *x)
{
	return x->k == N_LIST && x->n && x->kid[0]->k == N_SYM ? x->kid[0]->s : NULL;
}

/* A path: a fixed absolute string, or (param "NAME") for a defined NAME. */
static void check_path(struct check *c, const struct node *x)
{
	if (x->k == N_STR) {
		if (x->s[0] != '/')
			bad("line %d: path \"%s\" is not absolute", x->line, x->s);
		return;
	}
	const char *h = head(x);
	if (!h || strcmp(h, "param") != 0 || x->n != 2 || x->kid[1]->k != N_STR)
		bad("line %d: a path must be a string or (param \"NAME\")", x->line);
	for (size_t i = 0; i < c->np; i++)
		if (strcmp(c->p[i].name, x->kid[1]->s) == 0) {
			c->p[i].used = true;
			return;
		}
	bad("line %d: (param \"%s\") has no -D %s=...", x->line, x->kid[1]->s, x->kid[1]->s);
}

static void check_filter(struct check *c, const struct node *x)
{
	const char *h = head(x);
	if (!h)
		bad("line %d: a filter must be a list headed by a name", x->line);
	size_t nargs = x->n - 1;
	if (!strcmp(h, "literal") || !strcmp(h, "subpath")) {
		if (nargs != 1)
			bad("line %d: (%s PATH) takes one path", x->line, h);
		check_path(c, x->kid[1]);
	} else if (!strcmp(h, "regex")) {
		if (nargs != 1 || x->kid[1]->k != N_REGEX)
			bad("line %d: (regex #\"...\") takes one fixed regex literal", x->line);
		if (x->kid[1]->s[0] != '^')
			bad("line %d: regex #\"%s\" is not anchored", x->line, x->kid[1]->s);
	} else if (!strcmp(h, "require-any") || !strcmp(h, "require-all")) {
		if (nargs < 1)
			bad("line %d: (%s) without filters", x->line, h);
		for (size_t i = 1; i < x->n; i++)
			check_filter(c, x->kid[i]);
	} else if (!strcmp(h, "require-not")) {
		if (nargs != 1)
			bad("line %d: (require-not FILTER) takes one filter", x->line);
		check_filter(c, x->kid[1]);
	} else if (!strcmp(h, "remote") && nargs == 2 && is_sym(x->kid[1], "tcp")) {
		/* --allow-host: only kjail's proxy on the loopback, by port */
		const struct node *a = x->kid[2];
		if (a->k != N_STR || strncmp(a->s, "localhost:", 10) != 0 || !a->s[10] ||
		    strspn(a->s + 10, "0123456789") != strlen(a->s + 10))
			bad("line %d: (remote tcp \"localhost:PORT\") expected", x->line);
	} else if (!strcmp(h, "remote") || !strcmp(h, "local")) {
		if (nargs < 1 || nargs > 2 || !is_sym(x->kid[1], "unix-socket"))
			bad("line %d: (%s unix-socket [PATH-FILTER]) expected", x->line, h);
		if (nargs == 2) {
			const char *k = head(x->kid[2]);
			if (!k || (strcmp(k, "subpath") != 0 && strcmp(k, "literal") != 0))
				bad("line %d: a socket filter must be (subpath ...) or (literal ...)",
				    x->line);
			check_filter(c, x->kid[2]);
		}
	} else if (!strcmp(h, "target")) {
		if (nargs != 1 || !is_sym(x->kid[1], "same-sandbox"))
			bad("line %d: (target same-sandbox) expected", x->line);
	} else if (!strcmp(h, "global-name")) {
		if (nargs != 1 || x->kid[1]->k != N_STR || !x->kid[1]->s[0])
			bad("line %d: (global-name \"SERVICE\") expected", x->line);
	} else if (!strcmp(h, "file-mode")) {
		if (nargs != 1 || x->kid[1]->k != N_OCTAL)
			bad("line %d: (file-mode #oMODE) expected", x->line);
	} else {
		bad("line %d: unknown filter '%s'", x->line, h);
	}
}

static bool known_operation(const char *s)
{
	for (const char *const *o = operations; *o; o++)
		if (strcmp(*o, s) == 0)
			return true;
	return false;
}

static void check_rule(struct check *c, const struct node *x)
{
	size_t i = 1;
	for (; i < x->n && x->kid[i]->k == N_SYM; i++) {
		if (!known_operation(x->kid[i]->s))
			bad("line %d: unknown operation '%s'", x->kid[i]->line, x->kid[i]->s);
		if (is_sym(x->kid[i], "default") && (x->n != 2 || i != 1))
			bad("line %d: 'default' stands alone: (%s default)", x->line, head(x));
	}
	if (i == 1)
		bad("line %d: (%s) names no operation", x->line, head(x));
	for (; i < x->n; i++) {
		if (x->kid[i]->k != N_LIST)
			bad("line %d: operations come before filters", x->kid[i]->line);
		check_filter(c, x->kid[i]);
	}
}

static void check_profile(struct check *c, const char *text)
{
	struct reader r = { text, 1 };
	bool version = false;
	for (;;) {
		skip_space(&r);
		if (!*r.p)
			break;
		struct node *x = read_form(&r);
		const char *h = head(x);
		if (!h)
			bad("line %d: a top-level form must be a list headed by a name", x->line);
		if (!version) {
			if (strcmp(h, "version") != 0 || x->n != 2 || x->kid[1]->k != N_NUM ||
			    strcmp(x->kid[1]->s, "1") != 0)
				bad("line %d: the profile must start with (version 1)", x->line);
			version = true;
			free_node(x);
			continue;
		}
		if (strcmp(h, "allow") != 0 && strcmp(h, "deny") != 0)
			bad("line %d: unknown top-level form '%s'", x->line, h);
		check_rule(c, x);
		free_node(x);
	}
	if (!version)
		bad("the profile is empty");
	for (size_t i = 0; i < c->np; i++)
		if (!c->p[i].used)
			bad("-D %s is never used by the profile", c->p[i].name);
}

/* ------------------------------------------------------ command line */

struct invocation {
	const char *profile;
	struct check c;
	size_t ncmd;
	char **owned;     /* --json: the argv strings profile points into */
	size_t nowned;
};

/* Freed at exit (before LeakSanitizer looks), whichever way main ends. */
static struct invocation *to_free;

static void free_invocation(void)
{
	if (!to_free)
		return;
	for (size_t i = 0; i < to_free->c.np; i++) {
		free(to_free->c.p[i].name);
		free(to_free->c.p[i].value);
	}
	free(to_free->c.p);
	for (size_t i = 0; i < to_free->nowned; i++)
		free(to_free->owned[i]);
	free(to_free->owned);
}

static void add_param(struct check *c, const char *def)
{
	const char *eq = strchr(def, '=');
	if (!eq || eq == def)
		bad("-D %s: expected NAME=VALUE", def);
	size_t n = (size_t)(eq - def);
	if (strspn(def, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") != n)
		bad("-D %.*s: a parameter name is letters, digits and '_'", (int)n, def);
	for (size_t i = 0; i < c->np; i++)
		if (strlen(c->p[i].name) == n && strncmp(c->p[i].name, def, n) == 0)
			bad("-D %.*s given twice", (int)n, def);
	c->p = realloc(c->p, (c->np + 1) * sizeof *c->p);
	if (!c->p)
		usage("out of memory");
	c->p[c->np].name = strndup(def, n);
	c->p[c->np].value = strdup(eq + 1);
	c->p[c->np].used = false;
	c->np++;
}

/* argv as sandbox-exec reads it: options, "--", the command. */
static void parse_argv(struct invocation *inv, size_t argc, char **argv)
{
	size_t i = 0;
	if (i < argc && argv[i][0] == '/')
		i++; /* sandbox-exec's own path */
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (!strcmp(a, "-p") || !strcmp(a, "-D")) {
			if (i + 1 >= argc)
				bad("%s needs a value", a);
			if (a[1] == 'p') {
				if (inv->profile)
					bad("-p given twice");
				inv->profile = argv[++i];
			} else {
				add_param(&inv->c, argv[++i]);
			}
		} else if (!strncmp(a, "-D", 2)) {
			add_param(&inv->c, a + 2);
		} else {
			bad("unknown sandbox-exec option '%s' (kjail uses -p and -D)", a);
		}
	}
	if (!inv->profile)
		bad("no -p PROFILE");
	inv->ncmd = argc - i;
	if (!inv->ncmd)
		bad("no command after the options");
}

static char *slurp_stdin(void)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = xalloc(cap + 1);
	size_t r;
	while ((r = fread(buf + n, 1, cap - n, stdin)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				usage("out of memory");
		}
	}
	buf[n] = '\0';
	return buf;
}

/* kjail --print --json: its argv is checked like a command line, and what
 * it says besides must match that argv. */
static void from_json(struct invocation *inv)
{
	char *text = slurp_stdin();
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	if (!json_is_object(o))
		bad("--json: not one JSON object: %s (line %d)", je.text, je.line);
	const char *type = json_string_value(json_object_get(o, "type"));
	const char *backend = json_string_value(json_object_get(o, "backend"));
	if (!type || strcmp(type, "invocation") != 0 || !backend || strcmp(backend, "seatbelt") != 0)
		bad("--json: expected {\"type\":\"invocation\",\"backend\":\"seatbelt\",...}");
	json_t *a = json_object_get(o, "argv");
	if (!json_is_array(a) || json_array_size(a) == 0)
		bad("--json: no argv array");
	size_t argc = json_array_size(a);
	char **argv = xalloc((argc + 1) * sizeof *argv);
	for (size_t i = 0; i < argc; i++) {
		const char *s = json_string_value(json_array_get(a, i));
		if (!s)
			bad("--json: argv[%zu] is not a string", i);
		argv[i] = strdup(s);
	}
	if (strcmp(argv[0], "/usr/bin/sandbox-exec") != 0)
		bad("--json: argv[0] is '%s', not /usr/bin/sandbox-exec", argv[0]);
	parse_argv(inv, argc, argv);
	const char *profile = json_string_value(json_object_get(o, "profile"));
	if (!profile || strcmp(profile, inv->profile) != 0)
		bad("--json: \"profile\" differs from the profile in argv");
	json_t *ps = json_object_get(o, "params");
	if (!json_is_array(ps) || json_array_size(ps) != inv->c.np)
		bad("--json: \"params\" does not list the %zu -D parameters of argv", inv->c.np);
	for (size_t i = 0; i < inv->c.np; i++) {
		json_t *p = json_array_get(ps, i);
		const char *name = json_string_value(json_object_get(p, "name"));
		const char *value = json_string_value(json_object_get(p, "value"));
		if (!name || !value || strcmp(name, inv->c.p[i].name) != 0 ||
		    strcmp(value, inv->c.p[i].value) != 0)
			bad("--json: params[%zu] differs from -D %s in argv", i, inv->c.p[i].name);
	}
	if (!json_is_array(json_object_get(o, "env_unset")))
		bad("--json: no env_unset array");
	/* argv and its strings stay alive until exit: inv points into them. */
	inv->owned = argv;
	inv->nowned = argc;
	json_decref(o);
	free(text);
}

int main(int argc, char **argv)
{
	bool json = false;
	const char *show = NULL;
	int i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strncmp(argv[i], "--show=", 7))
			show = argv[i] + 7;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else
			break;
	}
	if (show && strcmp(show, "profile") != 0 && strcmp(show, "names") != 0 &&
	    strncmp(show, "param:", 6) != 0)
		usage("--show takes profile, names or param:NAME");
	static struct invocation inv;
	to_free = &inv;
	atexit(free_invocation);
	if (json) {
		if (i != argc)
			usage("--json reads the object from standard input, not arguments");
		from_json(&inv);
	} else {
		if (i == argc)
			usage("no sandbox-exec command line given");
		parse_argv(&inv, (size_t)(argc - i), argv + i);
	}
	check_profile(&inv.c, inv.profile);
	if (!show)
		return 0;
	if (!strcmp(show, "profile")) {
		fputs(inv.profile, stdout);
	} else if (!strcmp(show, "names")) {
		for (size_t k = 0; k < inv.c.np; k++)
			printf("%s\n", inv.c.p[k].name);
	} else {
		for (size_t k = 0; k < inv.c.np; k++)
			if (!strcmp(inv.c.p[k].name, show + 6)) {
				fputs(inv.c.p[k].value, stdout);
				return fflush(stdout) == 0 ? 0 : 1;
			}
		bad("no parameter %s", show + 6);
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

