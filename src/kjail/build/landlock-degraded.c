// SPDX-License-Identifier: MIT
#include "config.h"
#include "build/landlock-degraded.h"
#include "entry/abi.h"
#include <stdlib.h>
#include "util.h"

const struct ll_degraded ll_degraded_table[] = {
	{ "masked-refuse", "masked files refuse (EACCES) instead of reading empty",
	  "Landlock can only refuse: a masked store is EACCES, not an empty file, and its "
	  "name shows in its parent's listing", 0 },
	{ "masked-new-entries",
	  "a file created in ~, ~/.config or /etc after the start is unreadable until the next run",
	  "read rights are granted by enumerating the siblings of each mask at the start; a "
	  "later entry has none", 0 },
	{ "filtered-whole", "filtered configs masked whole",
	  "a filtered copy is served by a mount; without one the file is refused whole", 0 },
	{ "protected-after-run", "protected names restored after the run, not held during it",
	  "Landlock cannot carve a read-only exception out of a writable root: kjail copies "
	  "each protected name at start and puts it back after the run, so a host tool "
	  "running during the run could see a planted hook", 0 },
	{ "host-processes-visible", "host processes visible",
	  "no PID namespace: /proc lists the host's processes (scopes keep them from being "
	  "signalled; ptrace is refused by the seccomp filter)", 0 },
	{ "shared-tmp", "the shared /tmp is read-only (TMPDIR is private)",
	  "no private /tmp mount: TMPDIR is a directory under the per-workspace cache", 0 },
	{ "no-unix-sockets", "no AF_UNIX sockets (socketpair only)",
	  "Landlock cannot refuse connect(2) to a pathname socket, so socket(AF_UNIX) is "
	  "refused and --allow-socket with it", 0 },
	{ "no-private-loopback", "-n: no loopback of its own (no local server either)",
	  "under -n every TCP bind and connect is refused: bwrap would give a loopback of "
	  "its own", 0 },
	{ "no-allow-host", "--allow-host refused",
	  "Landlock's network rules name a port, not an address: the proxy's port would "
	  "reach any host", 0 },
	{ "no-devices", "--device refused; /dev is the host's, its nodes refused but null, zero, full, random, urandom and tty",
	  "no /dev of its own: the host's device nodes are listed, and refused (EACCES) but "
	  "the few a command needs and its own terminal; no /dev/shm", 0 },
	{ "no-allow-userns", "--allow-userns refused",
	  "no user namespace to nest in: a nested jail (bwrap, podman) needs one", 0 },
	{ "no-new-ptys", "no new pseudo-terminals",
	  "the host's /dev/pts holds the user's other terminals, so it is not writable: the "
	  "command keeps its own terminal, but cannot open a new one (script, expect)", 0 },
	{ "no-scopes", "abstract sockets and signals outside are not scoped (Landlock ABI < 6)",
	  "Landlock's scopes need ABI 6 (Linux 6.12): without them a host process can be "
	  "signalled and a host abstract socket reached", LANDLOCK_SCOPES_ABI },
	{ NULL, NULL, NULL, 0 },
};

char *ll_degraded_markdown(void)
{
	char *md = xstrdup("| id | lost against bwrap (the runtime line) | why |\n|---|---|---|\n");
	for (const struct ll_degraded *r = ll_degraded_table; r->id; r++) {
		char *longer = xasprintf("%s| `%s` | %s | %s%s |\n", md, r->id, r->line, r->why,
					 r->below_abi ? " (listed only on such a kernel)" : "");
		free(md);
		md = longer;
	}
	return md;
}

bool ll_degraded_applies(const struct ll_degraded *r, int abi)
{
	return r->below_abi == 0 || abi < r->below_abi;
}

char *ll_degraded_line(int abi)
{
	char *line = xstrdup("landlock backend: ");
	const char *sep = "";
	for (const struct ll_degraded *r = ll_degraded_table; r->id; r++) {
		if (!ll_degraded_applies(r, abi))
			continue;
		char *longer = xasprintf("%s%s%s", line, sep, r->line);
		free(line);
		line = longer;
		sep = "; ";
	}
	return line;
}
