/* The parent and three forked children each print rand(): siblings must differ, the whole
 * output must be a function of the seed (issue 18, class 3). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    for (int i = 0; i < 3; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            printf("child%d %d\n", i, rand());
            return 0;
        }
        waitpid(pid, NULL, 0);
    }
    printf("parent %d\n", rand());
    return 0;
}
