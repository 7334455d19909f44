/* Probe: the P-256 keys rhonabwy (iddawc's JOSE library) generates for an application's DPoP
 * proofs, as the adapter makes them (r_jwk_generate_key_pair, R_KEY_TYPE_EC, 256).
 * Claim: about 1 key in 125 has an x or y coordinate shorter than the 32 bytes RFC 7518 §6.2.1.2
 * requires ("MUST be the full size of a coordinate"): leading zero bytes are dropped, and a
 * server that checks the key refuses the proofs it signs. No server is needed to see it.
 * Usage: bin/probes/ec_key_coordinates */
#include <stdio.h>
#include <string.h>
#include <rhonabwy.h>
#include "probe_kit.h"

int main(void) {
  const int keys = 3000;
  int short_keys = 0;
  char observed[160];
  for (int index = 0; index < keys; index++) {
    jwk_t * private_key, * public_key;
    r_jwk_init(&private_key);
    r_jwk_init(&public_key);
    if (r_jwk_generate_key_pair(private_key, public_key, R_KEY_TYPE_EC, 256, "k") == RHN_OK) {
      const char * x = r_jwk_get_property_str(public_key, "x"), * y = r_jwk_get_property_str(public_key, "y");
      /* 32 bytes are 43 base64url characters without padding. */
      if (strlen(x) != 43 || strlen(y) != 43) {
        if (short_keys++ < 3) printf("  generated: x=%s (%zu characters) y=%s (%zu characters)\n", x, strlen(x), y, strlen(y));
      }
    }
    r_jwk_free(private_key);
    r_jwk_free(public_key);
  }
  snprintf(observed, sizeof(observed), "%d of %d keys have a coordinate shorter than 32 bytes", short_keys, keys);
  printf("  %s\n", observed);
  probe_verdict(short_keys > 0, observed, observed);
  return 0;
}
