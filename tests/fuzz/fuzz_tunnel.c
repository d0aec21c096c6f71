/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for kjail-entry --connect's reading of the proxy's
 * answer (src/kjail/entry/tunnel.h): the input is the answer. Besides
 * crashes and sanitizer reports, it checks what the reader promises: a
 * status is 100 to 599 with a header length inside the input; a
 * refusal's line is printable ASCII, starts "kjail: " and fits its
 * buffer. The first bytes also pick a host and port for the request
 * builder, whose output must be one request line and one Host line. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "entry/tunnel.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	size_t head = 0;
	int code = tunnel_reply(buf, size, &head);
	CHECK(code == TUNNEL_MORE || code == TUNNEL_BAD || (code >= 100 && code <= 599));
	if (code >= 100) {
		CHECK(head <= size);
		char line[64];
		memset(line, 'Z', sizeof line);
		if (tunnel_refusal(buf + head, size - head, line, 40)) {
			size_t n = strnlen(line, 40);
			CHECK(n < 40 && strncmp(line, "kjail: ", n < 7 ? n : 7) == 0);
			for (size_t i = 0; i < n; i++)
				CHECK(line[i] >= 0x20 && line[i] < 0x7f);
			CHECK(line[40] == 'Z');
		}
	}
	/* host and port: the input up to a NUL, then the rest up to a NUL */
	char host[300] = "", port[16] = "";
	size_t h = strnlen(buf, size < sizeof host - 1 ? size : sizeof host - 1);
	memcpy(host, buf, h);
	if (h + 1 < size) {
		size_t p = strnlen(buf + h + 1, size - h - 1 < sizeof port - 1 ? size - h - 1
									: sizeof port - 1);
		memcpy(port, buf + h + 1, p);
	}
	char req[TUNNEL_REQUEST_MAX];
	size_t n = 0;
	const char *why = NULL;
	if (tunnel_request(host, port, req, sizeof req, &n, &why)) {
		CHECK(n == strlen(req));
		const char *crlf = strstr(req, "\r\n");
		CHECK(crlf && strncmp(req, "CONNECT ", 8) == 0);
		CHECK(strncmp(crlf + 2, "Host: ", 6) == 0);
		CHECK(strstr(crlf + 2, "\r\n") == req + n - 4);
		for (size_t i = 0; i < n; i++)
			CHECK((req[i] >= 0x20 && req[i] < 0x7f) || req[i] == '\r' || req[i] == '\n');
	} else {
		CHECK(why != NULL);
	}
	return 0;
}
