#include "weft.h"
int weft_sched_managed(void) { return 0; }
void weft_sched_stats_at_exit(void) {}
