/* SPDX-License-Identifier: MIT */
/* proxy/conn.c: one connection, in a thread of its own. */
#ifndef KJ_PROXY_CONN_H
#define KJ_PROXY_CONN_H

#include "proxy/internal.h"

/* Serves the accepted fd in a thread of its own (counted in s->active,
 * which it decrements and notes on s->done when it ends); closes fd if no
 * thread can be made. */
void proxy_conn_start(struct proxy_serving *s, int fd, enum proxy_proto proto);

#endif
