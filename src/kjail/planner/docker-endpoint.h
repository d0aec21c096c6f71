/* SPDX-License-Identifier: MIT */
/* planner/docker-endpoint.c: the Unix sockets docker's client would
 * connect to: $DOCKER_HOST's, and its current context's endpoint. */
#ifndef KJ_PLANNER_DOCKER_ENDPOINT_H
#define KJ_PLANNER_DOCKER_ENDPOINT_H

#include "planner/plan.h"
#include "strv.h"

/* Largest docker config or context file read (bytes): a bigger one is
 * not docker's and is left alone. */
#define DOCKER_META_MAX (256 * 1024)

/* Appends to out the socket paths of $DOCKER_HOST (unix://PATH) and of
 * the current context ($DOCKER_CONTEXT, else config.json's
 * currentContext, in $DOCKER_CONFIG or home/.docker): the endpoint
 * Endpoints.docker.Host of contexts/meta/ * /meta.json whose Name it is.
 * These are the user's own files, read as docker reads them (jansson);
 * one that does not parse names nothing. */
void docker_endpoints(const struct host *h, const char *home, struct strv *out);

/* The path of a "unix://PATH" endpoint (absolute), a fresh string, or
 * NULL for any other. Pure. */
char *docker_unix_path(const char *host);

#endif
