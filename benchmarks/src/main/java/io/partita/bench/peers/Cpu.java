package io.partita.bench.peers;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time of processes and threads, as Linux accounts it: {@code utime + stime} of {@code /proc/<pid>/stat} (every
 * thread of the process), in clock ticks converted with the kernel's tick rate; and a thread's own CPU time from the
 * JVM ({@link ThreadMXBean}). Cores used over a window = CPU time spent in it / the window's length.
 */
final class Cpu {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long NANOS_PER_TICK = 1_000_000_000L / ticksPerSecond();

    private Cpu() {
    }

    /** CPU nanoseconds per process so far; processes that are gone are left out. */
    static Map<Long, Long> processes(Collection<Long> pids) {
        Map<Long, Long> times = new HashMap<>();
        for (long pid : pids) {
            long time = process(pid);
            if (time >= 0) {
                times.put(pid, time);
            }
        }
        return times;
    }

    /**
     * CPU nanoseconds spent between two {@link #processes} readings: each process's difference; a process only in the
     * later reading (started in between) counts whole, one only in the earlier (ended in between) is lost.
     */
    static long spent(Map<Long, Long> before, Map<Long, Long> after) {
        long spent = 0;
        for (Map.Entry<Long, Long> end : after.entrySet()) {
            spent += end.getValue() - before.getOrDefault(end.getKey(), 0L);
        }
        return spent;
    }

    /** This JVM's CPU nanoseconds so far. */
    static long self() {
        return process(ProcessHandle.current().pid());
    }

    /** A thread's CPU nanoseconds so far, or 0 when the JVM cannot tell. */
    static long thread(Thread thread) {
        long time = THREADS.isThreadCpuTimeSupported() ? THREADS.getThreadCpuTime(thread.getId()) : -1;
        return Math.max(0, time);
    }

    /**
     * CPU nanoseconds so far of the JIT compiler threads (named "C1 CompilerThre..." and "C2 CompilerThre...") of
     * {@code pids}: while a JVM's compilers are busy, it is still warming up. 0 for a process that is not a JVM.
     */
    static long compilers(Collection<Long> pids) {
        long spent = 0;
        for (long pid : pids) {
            try (var tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    try {
                        if (Files.readString(task.resolve("comm")).matches("C[12] CompilerThre.*\\R?")) {
                            spent += Math.max(0, parseStat(Files.readString(task.resolve("stat"))));
                        }
                    } catch (IOException | RuntimeException e) {
                        // A thread that ended meanwhile.
                    }
                }
            } catch (IOException | RuntimeException e) {
                // A process that is gone.
            }
        }
        return spent;
    }

    /** {@code utime + stime} of one process in nanoseconds, or -1 when it is gone or unreadable. */
    static long process(long pid) {
        try {
            return parseStat(Files.readString(Path.of("/proc", String.valueOf(pid), "stat")));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * {@code utime + stime} from the text of {@code /proc/<pid>/stat}, in nanoseconds. The command name (field 2) is
     * in parentheses and may itself contain spaces and parentheses, so fields are counted from the last ')': the
     * state is field 3, utime 14, stime 15.
     */
    static long parseStat(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * NANOS_PER_TICK;
    }

    private static long ticksPerSecond() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(getconf.getInputStream().readAllBytes()).trim();
            getconf.waitFor();
            return Long.parseLong(out);
        } catch (IOException | RuntimeException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
