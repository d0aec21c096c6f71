/* SPDX-License-Identifier: MIT */
/* settings/read.c: the layered INI files read into the loader (internal.h). */
#ifndef KLI_SETTINGS_READ_H
#define KLI_SETTINGS_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "settings/internal.h"

/* Read FILE (NULL: nothing to read) as LAYER into L; a missing file is
 * skipped. False with "FILE:LINE: ..." in ERR. */
bool settings_read_layer(struct loader *L, const char *file, enum layer layer, char *err,
			 size_t errlen);
/* The same over TEXT, named NAME in messages and origins. */
bool settings_read_text(struct loader *L, const char *name, const char *text,
			enum layer layer, char *err, size_t errlen);
void settings_loader_clear(struct loader *L);

#endif
