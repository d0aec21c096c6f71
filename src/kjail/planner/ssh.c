/* SPDX-License-Identifier: MIT */
/* ssh in the jail (ssh.h): the host keys it checks, and the way out
 * through kjail's proxy. Both are files kjail serves as data on a sealed
 * memfd (spawn.c), read here once: the jail sees the bytes read, never a
 * path a link could swap afterwards. */
#include "config.h"
#include "planner/ssh.h"
#include "planner/plan-take.h"
#include "planner/tools.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* known_hosts of some thousand hosts is a few hundred KiB */
#define SSH_FILE_MAX (4u << 20)

/* The regular file at real (not followed if it is a link), whole; NULL
 * with why. */
static char *read_regular(const char *real, size_t *len, const char **why)
{
	int fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		*why = strerror(e);
		if (fd >= 0)
			close(fd);
		errno = e;
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)SSH_FILE_MAX) {
		*why = !S_ISREG(st.st_mode) ? "not a regular file" : "larger than 4 MiB";
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	char *data = read_fd_capped(fd, SSH_FILE_MAX, len);
	close(fd);
	if (!data) {
		*why = "cannot read it";
		errno = EIO;
	}
	return data;
}

/* Hidden by a directory mask (the last op covering it), and named by
 * no op of its own (a --deny-read of it wins). */
static bool under_dir_mask_only(const struct plan *pl, const char *real)
{
	const struct op *o = plan_verdict(pl, real);
	return o && o->kind == OP_MASK_DIR && strcmp(o->path, real) != 0;
}

/* A mask the user asked for (--deny-read, deny-read =) on the file or a
 * directory above it: theirs wins over the built-in carve-out, even
 * where the planner folded it into the mask on ~/.ssh. */
static bool denied(const struct builder *b, const char *path, const char *real)
{
	const struct entry_list *l = &b->p->deny_read;
	for (size_t i = 0; i < l->n; i++) {
		_cleanup_free_ char *r = path_resolve(l->v[i].value, b->h->cwd);
		if (path_is_under(path, l->v[i].value) || (r && path_is_under(real, r)))
			return true;
	}
	return false;
}

static void show(struct builder *b, const char *home, const char *name)
{
	struct plan *pl = b->pl;
	_cleanup_free_ char *path = xasprintf("%s/.ssh/%s", home, name);
	_cleanup_free_ char *real = path_resolve(path, "/");
	if (!real || !under_dir_mask_only(pl, real) || denied(b, path, real))
		return;
	for (size_t i = 0; i < pl->nops; i++)
		if (pl->ops[i].serves && strcmp(pl->ops[i].path, real) == 0)
			return; /* $HOME is the account's home */
	const char *why = NULL;
	size_t len = 0;
	char *data = read_regular(real, &len, &why);
	if (!data && errno == ENOENT)
		return; /* none to show */
	if (!data) {
		_cleanup_free_ char *note = xasprintf("not shown (%s): stays masked", why);
		skip(b, real, note, "built-in: ssh host keys");
		return;
	}
	struct op *o = plan_take(pl, OP_MASK_FILE, steal_pointer(&real),
				 strpool_intern(&pl->strings, "shown: ssh host keys are public"),
				 strpool_intern(&pl->strings, "built-in: ssh checks the host it reaches"));
	o->data = data;
	o->len = len;
	o->serves = "shown";
	o->inner = true;
}

void plan_known_hosts(struct builder *b)
{
	if (b->pl->backend != BACKEND_BWRAP)
		return;
	const char *homes[] = { b->h->home, b->h->home_env };
	static const char *const names[] = { "known_hosts", "known_hosts2" };
	for (size_t h = 0; h < ARRAY_SIZE(homes); h++)
		for (size_t n = 0; homes[h] && homes[h][0] == '/' && n < ARRAY_SIZE(names); n++)
			show(b, homes[h], names[n]);
}

void plan_ssh_config(struct plan *pl, const char *origin)
{
	if (!pl->proxied || pl->backend != BACKEND_BWRAP)
		return;
	_cleanup_free_ char *real = path_resolve(KJ_SSH_CONFIG, "/");
	const char *why = "missing";
	size_t len = 0;
	_cleanup_free_ char *host = real ? read_regular(real, &len, &why) : NULL;
	if (!host) {
		_cleanup_free_ char *note = xasprintf(
			"%s: no ProxyCommand for ssh (it has no network in the jail)", why);
		entry_add(&pl->skipped, KJ_SSH_CONFIG, note);
		return;
	}
	struct strbuf s = STRBUF_INIT;
	sb_adds(&s, "# kjail: ssh reaches hosts through kjail's proxy, which allows only\n"
		    "# what --allow-host names (the first value of an option wins)\n"
		    "ProxyCommand " KJ_SSH_PROXY_COMMAND "\n"
		    "# the host's " KJ_SSH_CONFIG " follows\n");
	sb_add(&s, host, len);
	struct op *o = plan_take(pl, OP_MASK_FILE, steal_pointer(&real),
				 strpool_intern(&pl->strings, "ssh through kjail's proxy: ProxyCommand "
							      KJ_SSH_PROXY_COMMAND),
				 strpool_intern(&pl->strings, origin ? origin : "--allow-host"));
	o->len = s.len;
	o->data = sb_detach(&s);
	o->serves = "generated";
	o->inner = true;
}
