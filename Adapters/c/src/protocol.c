/* The adapter protocol's transport: JSON lines on stdin and stdout (docs/adapter-protocol.md). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "protocol.h"

static FILE * protocol_out = NULL;

void protocol_open(void) {
  int fd = dup(STDOUT_FILENO);
  protocol_out = fdopen(fd, "w");
  dup2(STDERR_FILENO, STDOUT_FILENO);
}

json_t * protocol_read(void) {
  char * line = NULL;
  size_t capacity = 0;
  ssize_t length;
  json_t * message = NULL;
  json_error_t error;

  while ((length = getline(&line, &capacity, stdin)) != -1) {
    if (strspn(line, " \t\r\n") == (size_t)length) {
      continue;
    }
    if ((message = json_loadb(line, (size_t)length, 0, &error)) == NULL || !json_is_object(message)) {
      json_decref(message);
      message = json_pack("{sns{ss}}", "op", "unreadable", "text", error.text);
    }
    break;
  }
  free(line);
  return message;
}

void protocol_write(json_t * answer) {
  char * line = json_dumps(answer, JSON_COMPACT);
  fprintf(protocol_out, "%s\n", line);
  fflush(protocol_out);
  free(line);
  json_decref(answer);
}

json_t * answer_ok(void) {
  return json_pack("{sb}", "ok", 1);
}

json_t * answer_success(long status, const char * body, size_t body_length) {
  json_t * answer = json_pack("{sbsI}", "ok", 1, "status", (json_int_t)status);
  if (body != NULL) {
    /* The body as the application got it; a body that is not UTF-8 goes with '?' for the bytes
     * outside ASCII, since a JSON string holds text only. */
    json_t * text = json_stringn(body, body_length);
    if (text == NULL) {
      char * ascii = malloc(body_length);
      for (size_t i = 0; i < body_length; i++) {
        ascii[i] = (body[i] & 0x80) ? '?' : body[i];
      }
      text = json_stringn(ascii, body_length);
      free(ascii);
    }
    json_object_set_new(answer, "body", text);
  }
  return answer;
}

json_t * answer_failure(json_t * error) {
  json_t * answer = json_pack("{sb}", "ok", 0);
  json_object_set_new(answer, "error", error);
  return answer;
}

json_t * answer_fault(const char * message) {
  return json_pack("{ss}", "fault", message);
}

json_t * client_error(const char * category, const char * oauth_error, long status,
                      const char * type, const char * message) {
  json_t * error = json_object();
  if (category != NULL) {
    json_object_set_new(error, "category", json_string(category));
  }
  if (oauth_error != NULL) {
    json_object_set_new(error, "oauth_error", json_string(oauth_error));
  }
  if (status > 0) {
    json_object_set_new(error, "status", json_integer(status));
  }
  if (type != NULL) {
    json_object_set_new(error, "type", json_string(type));
  }
  json_object_set_new(error, "message", json_string(message != NULL ? message : ""));
  return error;
}
