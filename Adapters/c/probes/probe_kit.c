/* The probes' throwaway server and helpers (probe_kit.h). */
#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <orcania.h>
#include <rhonabwy.h>
#include "probe_kit.h"

static int server_port;
static probe_handler server_handler;

/* Reads one request: the head up to the blank line, then Content-Length bytes of body. */
static int read_request(int fd, struct probe_request * request) {
  char buffer[65536];
  size_t used = 0;
  char * end = NULL, * line_end, * length_header;
  ssize_t got;
  size_t head_length, content_length = 0;

  while (end == NULL && used < sizeof(buffer) - 1) {
    if ((got = read(fd, buffer + used, sizeof(buffer) - 1 - used)) <= 0) {
      return 0;
    }
    used += (size_t)got;
    buffer[used] = '\0';
    end = strstr(buffer, "\r\n\r\n");
  }
  if (end == NULL) {
    return 0;
  }
  head_length = (size_t)(end - buffer) + 4;
  line_end = strstr(buffer, "\r\n");
  sscanf(buffer, "%15s %2047s", request->method, request->target);
  snprintf(request->headers, sizeof(request->headers), "%.*s", (int)(end - line_end), line_end);
  if ((length_header = (char *)probe_header(request, "Content-Length")) != NULL) {
    content_length = (size_t)strtoul(length_header, NULL, 10);
  }
  request->body = calloc(content_length + 1, 1);
  request->body_length = content_length;
  memcpy(request->body, buffer + head_length, used - head_length < content_length ? used - head_length : content_length);
  for (size_t have = used - head_length; have < content_length; have += (size_t)got) {
    if ((got = read(fd, request->body + have, content_length - have)) <= 0) {
      return 0;
    }
  }
  return 1;
}

static void * serve(void * listener_pointer) {
  int listener = *(int *)listener_pointer;
  for (;;) {
    int fd = accept(listener, NULL, NULL);
    struct probe_request request = {0};
    struct probe_response response = {0};
    struct timeval timeout = {5, 0};
    char head[4096];

    if (fd < 0) {
      continue;
    }
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    if (read_request(fd, &request)) {
      response.status = 404;
      server_handler(&request, &response);
      snprintf(head, sizeof(head), "HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %zu\r\nConnection: close\r\n%s\r\n",
               response.status, strlen(response.body), response.headers);
      if (write(fd, head, strlen(head)) < 0 || write(fd, response.body, strlen(response.body)) < 0) {
        perror("probe server write");
      }
    }
    free(request.body);
    close(fd);
  }
  return NULL;
}

int probe_serve(probe_handler handler) {
  static int listener;
  struct sockaddr_in address = {0};
  socklen_t length = sizeof(address);
  pthread_t thread;

  server_handler = handler;
  listener = socket(AF_INET, SOCK_STREAM, 0);
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  if (bind(listener, (struct sockaddr *)&address, sizeof(address)) != 0 || listen(listener, 16) != 0) {
    perror("probe server");
    exit(2);
  }
  getsockname(listener, (struct sockaddr *)&address, &length);
  server_port = ntohs(address.sin_port);
  pthread_create(&thread, NULL, serve, &listener);
  pthread_detach(thread);
  return server_port;
}

const char * probe_url(const char * path) {
  static char urls[8][1024];
  static int next = 0;
  char * url = urls[next++ % 8];
  snprintf(url, 1024, "http://127.0.0.1:%d%s", server_port, path);
  return url;
}

const char * probe_header(const struct probe_request * request, const char * name) {
  static char values[8][4096];
  static int next = 0;
  char * value = values[next++ % 8];
  const char * line = request->headers;
  size_t name_length = strlen(name);
  while ((line = strstr(line, "\r\n")) != NULL) {
    line += 2;
    if (strncasecmp(line, name, name_length) == 0 && line[name_length] == ':') {
      const char * start = line + name_length + 1, * end = strstr(start, "\r\n");
      while (*start == ' ') {
        start++;
      }
      snprintf(value, sizeof(values[0]), "%.*s", (int)(end != NULL ? end - start : (long)strlen(start)), start);
      return value;
    }
  }
  return NULL;
}

const char * probe_form(const struct probe_request * request, const char * name) {
  static char values[8][4096];
  static int next = 0;
  char * value = values[next++ % 8];
  char * copy, * pair, * save = NULL;
  const char * found = NULL;
  if (request->body == NULL) {
    return NULL;
  }
  copy = o_strdup(request->body);
  for (pair = strtok_r(copy, "&", &save); pair != NULL; pair = strtok_r(NULL, "&", &save)) {
    char * equals = strchr(pair, '=');
    if (equals != NULL && (size_t)(equals - pair) == strlen(name) && strncmp(pair, name, strlen(name)) == 0) {
      size_t out = 0;
      for (char * in = equals + 1; *in != '\0' && out < sizeof(values[0]) - 1; in++) {
        if (*in == '%' && isxdigit((unsigned char)in[1]) && isxdigit((unsigned char)in[2])) {
          char hex[3] = {in[1], in[2], 0};
          value[out++] = (char)strtol(hex, NULL, 16);
          in += 2;
        } else {
          value[out++] = *in == '+' ? ' ' : *in;
        }
      }
      value[out] = '\0';
      found = value;
      break;
    }
  }
  o_free(copy);
  return found;
}

const char * probe_jwt_claim(const char * jwt, const char * claim) {
  static char value[1024];
  const char * payload, * end;
  unsigned char decoded[8192];
  size_t decoded_length = 0;
  json_t * claims;
  if (jwt == NULL || (payload = strchr(jwt, '.')) == NULL || (end = strchr(payload + 1, '.')) == NULL ||
      !o_base64url_decode((const unsigned char *)payload + 1, (size_t)(end - payload - 1), decoded, &decoded_length)) {
    return NULL;
  }
  decoded[decoded_length] = '\0';
  claims = json_loads((const char *)decoded, 0, NULL);
  if (!json_is_string(json_object_get(claims, claim))) {
    json_decref(claims);
    return NULL;
  }
  snprintf(value, sizeof(value), "%s", json_string_value(json_object_get(claims, claim)));
  json_decref(claims);
  return value;
}

int probe_path_is(const struct probe_request * request, const char * path) {
  size_t length = strlen(path);
  return strncmp(request->target, path, length) == 0 && (request->target[length] == '\0' || request->target[length] == '?');
}

void probe_json(struct probe_response * response, int status, const char * json) {
  response->status = status;
  snprintf(response->body, sizeof(response->body), "%s", json);
}

static jwk_t * provider_private_key, * provider_public_key;

void probe_provider_keys(void) {
  r_jwk_init(&provider_private_key);
  r_jwk_init(&provider_public_key);
  r_jwk_generate_key_pair(provider_private_key, provider_public_key, R_KEY_TYPE_RSA, 2048, "k1");
  r_jwk_set_property_str(provider_public_key, "alg", "RS256");
  r_jwk_set_property_str(provider_public_key, "use", "sig");
}

const char * probe_jwks(void) {
  static char jwks[8192];
  char * key = r_jwk_export_to_json_str(provider_public_key, 0);
  snprintf(jwks, sizeof(jwks), "{\"keys\":[%s]}", key);
  r_free(key);
  return jwks;
}

const char * probe_discovery(void) {
  static char document[4096];
  snprintf(document, sizeof(document),
           "{\"issuer\":\"%s\",\"authorization_endpoint\":\"%s\",\"token_endpoint\":\"%s\",\"userinfo_endpoint\":\"%s\","
           "\"jwks_uri\":\"%s\",\"response_types_supported\":[\"code\"],\"subject_types_supported\":[\"public\"],"
           "\"id_token_signing_alg_values_supported\":[\"RS256\",\"HS256\"],\"scopes_supported\":[\"openid\"],"
           "\"grant_types_supported\":[\"authorization_code\",\"refresh_token\"],\"response_modes_supported\":[\"query\"]}",
           probe_url(""), probe_url("/authorize"), probe_url("/token"), probe_url("/userinfo"), probe_url("/jwks"));
  return document;
}

char * probe_id_token(json_t * claims) {
  return probe_id_token_with_kid(claims, "k1");
}

char * probe_id_token_with_kid(json_t * claims, const char * kid) {
  jwt_t * jwt;
  char * token;
  r_jwt_init(&jwt);
  r_jwt_set_full_claims_json_t(jwt, claims);
  r_jwt_set_sign_alg(jwt, R_JWA_ALG_RS256);
  r_jwt_set_header_str_value(jwt, "kid", kid);
  token = r_jwt_serialize_signed(jwt, provider_private_key, 0);
  r_jwt_free(jwt);
  return token;
}

void probe_verdict(int holds, const char * claim, const char * observed) {
  fflush(stderr);
  if (holds) {
    printf("confirmed: %s\n", claim);
    fflush(stdout);
    exit(0);
  }
  printf("not confirmed: %s\n", observed);
  fflush(stdout);
  exit(1);
}
