/* SPDX-License-Identifier: MIT */
/* The words --explain says in both its forms, text and JSON
 * (explain-words.h). */
#include "config.h"
#include "build/explain-words.h"
#include "planner/plan.h"
#include "proxy/rules.h"
#include "build/seccomp.h"
#include "policy/policy.h"
#include "util.h"

#include <errno.h>
#include <string.h>
#include <stdio.h>

const char *op_verdict(enum op_kind k)
{
	switch (k) {
	case OP_RO_ROOT:
	case OP_PROC_BIND:
	case OP_PROTECT:
	case OP_HELPER:
	case OP_POLICY:
	case OP_SEAL:
	case OP_SOCKET: /* a read-only mount of a socket still connects */
	case OP_SHOW:
		return "read-only";
	case OP_DEV:
	case OP_PROC:
	case OP_TMP:
		return "private";
	case OP_BIND:
	case OP_PIN:
		return "writable";
	case OP_MASK_FILE:
	case OP_MASK_DIR:
		return "masked";
	}
	return "read-only";
}

const char *errno_name(int e)
{
	return e == EPERM ? "EPERM" : e == ENOSYS ? "ENOSYS" : e == EAFNOSUPPORT ? "EAFNOSUPPORT" : "error";
}

/* seccomp_rules() lists the rules of one idea next to each other. */
bool same_rule(const struct sc_rule *a, const struct sc_rule *b)
{
	return strcmp(a->syscall, b->syscall) == 0 &&
	       str_eq(a->what ? a->what : "", b->what ? b->what : "");
}

/* What decided the network (a plan built by hand has only the policy's). */
const char *net_origin(const struct policy *p, const struct plan *pl)
{
	return pl->net_origin ? pl->net_origin : p->network.origin;
}

const char *net_mode_name(const struct plan *pl)
{
	return pl->network ? "shared" : pl->net == NET_ALLOWLIST ? "allowlist" : "none";
}

/* "*.example.org", "[2001:db8::1]", "api.openai.com" */
void rule_host(const struct allow_rule *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", r->kind == ALLOW_SUFFIX ? "*." : "",
		 r->kind == ALLOW_IPV6 ? "[" : "", r->host, r->kind == ALLOW_IPV6 ? "]" : "");
}
