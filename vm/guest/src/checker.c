/* sfcheck REQUESTS: reads /run/sf-results (id, sent payload, echoed id, echoed payload per completed
 * operation) and checks that operations 0..REQUESTS-1 each completed once, in order, with their own echo. */
#include "sfevent.h"
#include <stdlib.h>

int main(int argc, char **argv) {
    int requests = argc > 1 ? atoi(argv[1]) : 0;
    FILE *f = fopen(SF_RESULTS, "r");
    int checked = 0, mismatches = 0;
    if (f) {
        char id[32], sent[32], echo_id[32], got[32];
        while (fscanf(f, "%31s %31s %31s %31s", id, sent, echo_id, got) == 4) {
            char want[16];
            snprintf(want, sizeof want, "r%04d", checked);
            if (strcmp(id, want) != 0 || strcmp(echo_id, id) != 0 || strcmp(got, sent) != 0) mismatches++;
            checked++;
        }
        fclose(f);
    }
    int ok = f && checked == requests && mismatches == 0;
    sf_emit("checker", "\"e\":\"verdict\",\"ok\":%s,\"checked\":%d,\"mismatches\":%d", ok ? "true" : "false",
            checked, mismatches);
    return ok ? 0 : 1;
}
