package io.bindfirst.server.work;

import java.util.Locale;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Sets the nice value of the calling thread, so that the kernel runs the server's other threads first when
 * both have work: the TLS handshake threads run at a higher nice value than the threads that serve established
 * connections, and a storm of new connections then takes the CPU those leave, not the CPU they need.
 *
 * <p>On Linux the nice value belongs to each thread: {@code setpriority(PRIO_PROCESS, 0, n)} changes the
 * calling thread's alone (elsewhere it would change the whole process, so this does nothing there). Only a
 * higher nice value than the thread has is ever set: lowering it needs a privilege the server should not use,
 * and a server started under {@code nice} keeps at least what it was given. Where the C library cannot be
 * reached (JNA's native part cannot be loaded, for example from a temporary folder mounted {@code noexec}),
 * the threads run at the normal priority and the server says so once.
 */
public final class ThreadNice {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadNice.class);
    private static final int PRIO_PROCESS = 0;
    /** The highest nice value: the lowest priority short of {@code SCHED_IDLE}. */
    public static final int MOST = 19;

    /** The two calls of the C library this needs. */
    interface CLibrary extends Library {
        int getpriority(int which, int who) throws LastErrorException;

        int setpriority(int which, int who, int prio) throws LastErrorException;
    }

    private final CLibrary c;
    private final String unavailable;
    private boolean reported; // guarded by this

    private ThreadNice(CLibrary c, String unavailable) {
        this.c = c;
        this.unavailable = unavailable;
    }

    /** The C library of this system, if it is Linux and JNA can reach it. */
    public static ThreadNice ofThisSystem() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.startsWith("linux")) {
            return new ThreadNice(null, "nice values are per thread on Linux only, not on " + os);
        }
        try {
            return new ThreadNice(Native.load("c", CLibrary.class), null);
        } catch (LinkageError | RuntimeException e) {
            return new ThreadNice(null, "the C library could not be reached through JNA: " + e.getMessage());
        }
    }

    /**
     * Raises the calling thread's nice value to {@code nice} (0 to {@link #MOST}) if it is lower.
     *
     * @param what the threads this is for, for the one message saying it could not be done
     * @return the calling thread's nice value afterwards, or -1 if it could not be read or set
     */
    public int raiseCurrentThread(int nice, String what) {
        if (nice < 0 || nice > MOST) {
            throw new IllegalArgumentException("a nice value from 0 to " + MOST + ", not " + nice);
        }
        if (c == null) {
            reportOnce(what, unavailable);
            return -1;
        }
        try {
            int now = c.getpriority(PRIO_PROCESS, 0);
            if (now >= nice) {
                return now;
            }
            c.setpriority(PRIO_PROCESS, 0, nice);
            return nice;
        } catch (LastErrorException e) {
            reportOnce(what, "setpriority failed with errno " + e.getErrorCode());
            return -1;
        }
    }

    private synchronized void reportOnce(String what, String why) {
        if (!reported) {
            reported = true;
            LOG.warn("{} run at the normal priority: {}", what, why);
        }
    }
}
