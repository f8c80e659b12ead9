package io.partita.bench;

import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The profile's arithmetic on stacks made up for it, then on a small flight recording of a known busy method. */
class ProfileTest {

    private static final List<String> MAP_IN_PROCESSOR = List.of(
            "java.util.HashMap.get",
            "com.hazelcast.map.impl.recordstore.DefaultRecordStore.get",
            "io.partita.account.ApplyTransaction.process",
            "com.hazelcast.spi.impl.operationexecutor.impl.OperationThread.run");
    private static final List<String> EVENT_LOOP = List.of(
            "io.netty.channel.nio.NioEventLoop.processSelectedKeys",
            "io.netty.channel.nio.NioEventLoop.run",
            "java.lang.Thread.run");
    private static final List<String> RECURSIVE = List.of(
            "com.hazelcast.internal.serialization.impl.Writer.write",
            "com.hazelcast.internal.serialization.impl.Writer.write",
            "java.lang.Thread.run");
    private static final List<String> ONLY_JDK = List.of(
            "java.util.concurrent.ForkJoinPool.scan",
            "java.util.concurrent.ForkJoinPool.runWorker");

    private static Profile.Aggregation fourSamples() {
        Profile.Aggregation aggregation = new Profile.Aggregation();
        aggregation.add("hz.festive_hopper.partition-operation.thread-1", MAP_IN_PROCESSOR);
        aggregation.add("nioEventLoopGroup-2-1", EVENT_LOOP);
        aggregation.add("hz.festive_hopper.partition-operation.thread-0", RECURSIVE);
        aggregation.add("partita-continuation-12", ONLY_JDK);
        aggregation.add("empty", List.of());
        return aggregation;
    }

    @Test
    void shouldCountTheTopFrameAsSelfAndEveryFrameOnceAsTotal() {
        Profile.Aggregation aggregation = fourSamples();

        assertEquals(4, aggregation.samples());
        assertEquals(1, aggregation.self("java.util.HashMap.get"));
        assertEquals(0, aggregation.self("io.partita.account.ApplyTransaction.process"));
        assertEquals(1, aggregation.total("io.partita.account.ApplyTransaction.process"));
        assertEquals(1, aggregation.self("com.hazelcast.internal.serialization.impl.Writer.write"));
        assertEquals(1, aggregation.total("com.hazelcast.internal.serialization.impl.Writer.write"));
        assertEquals(2, aggregation.total("java.lang.Thread.run"));
        assertEquals("java.lang.Thread.run", aggregation.topTotal(1).get(0));
    }

    @Test
    void shouldChargeJdkFramesToTheirNearestNonJdkCaller() {
        Profile.Aggregation aggregation = fourSamples();

        assertEquals(2, aggregation.areaSelf("jdk"));
        assertEquals(1, aggregation.areaSelf("hazelcast"));
        assertEquals(1, aggregation.areaSelf("netty"));
        assertEquals(2, aggregation.areaCharged("hazelcast"));
        assertEquals(1, aggregation.areaCharged("jdk"));
        assertEquals(1, aggregation.areaTotal("partita"));
        assertEquals(4, aggregation.areaTotal("jdk"));
        assertEquals(2, aggregation.areaTotal("hazelcast"));
    }

    @Test
    void shouldNameAreasByPackage() {
        assertEquals("hazelcast", Profile.area("com.hazelcast.map.impl.MapService.get"));
        assertEquals("netty", Profile.area("io.netty.buffer.ByteBuf.writeBytes"));
        assertEquals("micronaut", Profile.area("io.micronaut.http.server.RouteExecutor.execute"));
        assertEquals("partita", Profile.area("io.partita.account.Ledger.decide"));
        assertEquals("harness", Profile.area("io.partita.bench.Throughput.run"));
        assertEquals("jdk", Profile.area("jdk.internal.net.http.Http1Exchange.sendAsync"));
        assertEquals("jdk", Profile.area("sun.nio.ch.EPoll.wait"));
        assertEquals("other", Profile.area("com.fasterxml.jackson.core.JsonParser.nextToken"));
    }

    @Test
    void shouldGroupThreadsWithoutTheirNumbersAndInstanceNames() {
        Profile.Aggregation aggregation = fourSamples();

        assertEquals("hz.*.partition-operation.thread-N",
                Profile.threadGroup("hz.festive_hopper.partition-operation.thread-1"));
        assertEquals("bench-*", Profile.threadGroup("bench-0c1e7a3d-93c2-4d8e-9a4f-2b1c5d6e7f80"));
        assertEquals(2, aggregation.thread("hz.*.partition-operation.thread-N"));
        assertEquals(1, aggregation.thread("partita-continuation-N"));
    }

    @Test
    void shouldFindABusyMethodInAFlightRecordingWithinItsPhase(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("busy.jfr");
        try (Recording recording = new Recording()) {
            recording.enable(Profile.EXECUTION_SAMPLE).withPeriod(Duration.ofMillis(10));
            recording.enable(Profile.PHASE_EVENT);
            recording.start();
            busyOutsideAnyPhase();
            Throughput.PhaseEvent event = new Throughput.PhaseEvent();
            event.nodes = 1;
            event.phase = "busy";
            event.concurrency = 1;
            event.begin();
            long checksum = busy();
            event.commit();
            recording.stop();
            recording.dump(file);
            assertTrue(checksum != 42, "keeps the loop");
        }

        List<Profile.Window> windows = Profile.phases(file);
        Profile.Aggregation inPhase = Profile.read(file, windows);

        assertEquals(1, windows.size());
        assertEquals("busy", windows.get(0).phase());
        assertTrue(inPhase.samples() > 0, "no sample in the phase");
        assertTrue(inPhase.total(ProfileTest.class.getName() + ".busy") > 0, inPhase.report(10));
        assertEquals(0, inPhase.total(ProfileTest.class.getName() + ".busyOutsideAnyPhase"), inPhase.report(10));
        assertTrue(Profile.read(file, null).total(ProfileTest.class.getName() + ".busyOutsideAnyPhase") > 0);
    }

    /** Spins in a frame of its own name, for the profile to find inside the phase. */
    private static long busy() {
        return spin();
    }

    /** Spins in a frame of its own name, for the profile to find outside any phase. */
    private static void busyOutsideAnyPhase() {
        if (spin() == 42) {
            throw new AssertionError();
        }
    }

    /** Spins until this thread has used 300 ms of CPU, however busy the machine is. */
    private static long spin() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + Duration.ofMillis(300).toNanos();
        long checksum = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 100_000; i++) {
                checksum = checksum * 31 + i;
            }
        }
        return checksum;
    }
}
