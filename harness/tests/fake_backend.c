/* A protocol-speaking test backend that misbehaves on request.
 *
 * Answers "LINE<TAB>PFM_SUCCESS<TAB>1<TAB>0xN<TAB>fake::LINE" where N counts the
 * lines this process has answered, so a restart is visible as N starting
 * over at 1.  Special lines:
 *   crash    dies with SIGSEGV before answering
 *   hang     sleeps far longer than any test timeout
 *   garbage  answers a line that is not a protocol answer
 *   exit     exits without answering
 *   crlf     answers with a CR before the '\n'
 *   die      exits with status 3 without answering
 *   ahead    answers as if it had been given another line (an answer out of
 *            order: the request field is "ahead+1")
 *   stale    answers this line twice: the second answer arrives when the
 *            next line is sent (out of order for that line)
 *   huge     answers one line of 65 MiB (longer than pmusim accepts)
 *   closeout closes its stdout and keeps reading its input
 *   half     writes half an answer (no '\n') and exits
 *   nul      answers with a NUL byte inside the line
 *   silent   reads the line and never answers, still reading
 *   del      answers with a DEL byte (0x7f) in FSTR
 *   badregs  answers with a REGS field that is not NAME=0xVALUE pairs
 * With the argument --oneshot it answers its first line PFM_ERR_NOTFOUND and
 * exits, as a program run once per line does. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int oneshot = argc > 1 && strcmp(argv[1], "--oneshot") == 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned long served = 0;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        if (strcmp(line, "crash") == 0) {
            signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would turn it into a report and an exit */
            raise(SIGSEGV);
        }
        if (strcmp(line, "hang") == 0)
            sleep(60);
        if (strcmp(line, "exit") == 0) {
            free(line);
            return 0;
        }
        if (strcmp(line, "die") == 0) {
            free(line);
            return 3;
        }
        if (strcmp(line, "half") == 0) {
            printf("%s\tPFM_SUCC", line);
            fflush(stdout);
            free(line);
            return 0;
        }
        if (strcmp(line, "closeout") == 0) {
            fclose(stdout);
            close(1);
            while (getline(&line, &cap, stdin) >= 0)
                ;
            free(line);
            return 0;
        }
        if (strcmp(line, "silent") == 0)
            continue;
        if (oneshot) {
            printf("%s\tPFM_ERR_NOTFOUND\t0\t\t\n", line);
            break;
        }
        if (strcmp(line, "garbage") == 0)
            printf("this is not an answer\n");
        else if (strcmp(line, "ahead") == 0)
            printf("ahead+1\tPFM_SUCCESS\t1\t0x%lx\tfake::ahead+1\n", ++served);
        else if (strcmp(line, "stale") == 0)
            printf("%s\tPFM_SUCCESS\t1\t0x%lx\tfake::%s\n%s\tPFM_SUCCESS\t1\t0x%lx\tfake::%s\n", line, served + 1, line,
                   line, served + 1, line),
                served++;
        else if (strcmp(line, "huge") == 0) {
            fputs("huge\tPFM_SUCCESS\t1\t0x1\tfake::", stdout);
            for (long i = 0; i < 65L * 1024 * 1024; i++)
                putchar('H');
            putchar('\n');
        } else if (strcmp(line, "nul") == 0) {
            printf("%s\tPFM_SUCCESS\t1\t0x%lx\tfake::", line, ++served);
            putchar('\0');
            printf("%s\n", line);
        } else if (strcmp(line, "del") == 0)
            printf("%s\tPFM_SUCCESS\t1\t0x%lx\tfake::\x7f%s\n", line, ++served, line);
        else if (strcmp(line, "badregs") == 0)
            printf("%s\tPFM_SUCCESS\t1\t0x%lx\tfake::%s\tPMC4\n", line, ++served, line);
        else if (strcmp(line, "crlf") == 0)
            printf("%s\tPFM_SUCCESS\t1\t0x%lx\tfake::%s\r\n", line, ++served, line);
        else
            printf("%s\tPFM_SUCCESS\t1\t0x%lx\tfake::%s\n", line, ++served, line);
        fflush(stdout);
    }
    free(line);
    return 0;
}
