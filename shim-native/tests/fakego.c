/* A C program carrying a .go.buildinfo section, so `weft run` must warn that it looks like Go. */
static const char buildinfo[] __attribute__((used, section(".go.buildinfo"))) = "\xff Go buildinf:";
int main(void) { return 0; }
