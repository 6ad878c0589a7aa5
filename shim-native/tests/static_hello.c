/* Linked with -static: LD_PRELOAD cannot reach it, so `weft run` must warn. */
#include <stdio.h>
int main(void) { puts("static hello"); return 0; }
