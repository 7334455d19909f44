/* The adapter protocol's lines (docs/adapter-protocol.md): one JSON object a line on stdin, one
 * answer a line on stdout, and the answer objects the operations share. */
#ifndef ADAPTER_PROTOCOL_H
#define ADAPTER_PROTOCOL_H

#include <stdio.h>
#include <jansson.h>

#define PROTOCOL_VERSION 1

/* Keeps the real stdout for the protocol and points stdout at stderr: the library and its
 * logger may print, and nothing but answers may reach the harness. */
void protocol_open(void);

/* The next message, or NULL at the end of input. A line that is not JSON comes back as a
 * message whose "op" is null, so that it is answered with a fault. */
json_t * protocol_read(void);

/* Writes one whole answer line and flushes it; takes the reference. */
void protocol_write(json_t * answer);

/* {"ok": true} */
json_t * answer_ok(void);
/* {"ok": true, "status": status, "body": body}; body may be NULL. */
json_t * answer_success(long status, const char * body, size_t body_length);
/* {"ok": false, "error": error}; takes the reference to error. */
json_t * answer_failure(json_t * error);
/* {"fault": message}: the adapter itself could not do what was asked. */
json_t * answer_fault(const char * message);

/* An error as the protocol reports it; every argument may be NULL or 0 (left out). */
json_t * client_error(const char * category, const char * oauth_error, long status,
                      const char * type, const char * message);

#endif
