package io.partita.node;

import com.hazelcast.config.Config;
import com.hazelcast.config.ConfigAccessor;
import com.hazelcast.config.ServiceConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.partition.ChunkSupplier;
import com.hazelcast.internal.partition.ChunkedMigrationAwareService;
import com.hazelcast.internal.partition.InternalPartition;
import com.hazelcast.internal.partition.MigrationEndpoint;
import com.hazelcast.internal.partition.PartitionMigrationEvent;
import com.hazelcast.internal.partition.PartitionReplica;
import com.hazelcast.internal.partition.PartitionReplicationEvent;
import com.hazelcast.internal.services.DistributedObjectNamespace;
import com.hazelcast.internal.services.ManagedService;
import com.hazelcast.internal.services.ServiceNamespace;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.spi.impl.NodeEngine;
import com.hazelcast.spi.impl.NodeEngineImpl;
import com.hazelcast.spi.impl.operationservice.BackupOperation;
import com.hazelcast.spi.impl.operationservice.impl.InvocationFuture;
import com.hazelcast.spi.impl.operationservice.Operation;
import com.hazelcast.spi.impl.operationservice.OperationService;
import com.hazelcast.spi.impl.operationservice.PartitionAwareOperation;
import com.hazelcast.spi.impl.operationservice.ReadonlyOperation;
import io.partita.store.HistoryPage;
import io.partita.store.SeqRun;
import io.partita.store.SharePage;
import io.partita.store.StoredEntry;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The journal history on members' disks, per partition: it moves with its partition, and it is read where it is. A
 * member that becomes owner or backup of a partition has the partition's history on its own disk before it serves;
 * {@link Read} reads it at the owner and {@link #push} writes to the owner's and backups' disks. Every operation here
 * runs on its partition's thread.
 */
public final class DiskShares implements ManagedService, ChunkedMigrationAwareService {

    /*
     * Moving with the partition
     *
     * A member's disk (MemberDisk) holds the journal entries of every partition the member holds a copy of, for the
     * whole retention, while the grid's journal map keeps only the last seconds. So a member that becomes owner or
     * backup of a partition needs the partition's history on its own disk before it serves: Hazelcast asks this service
     * for it when it moves or copies a partition (prepareReplicationOperation), as it asks its own maps, and the share
     * arrives with the partition's maps, before the migration completes (Share). A member that stops holding a
     * partition drops it from its disk later (the ledger's disk thread), never while a migration is bringing it back
     * (arriving).
     *
     * Reading and pushing
     *
     * Two more operations reach a partition's disk share wherever it is: Read reads an account's history, or an entry
     * by txId, at the owner, and push writes entries to the owner's and backups' disks (what a restarted member brings
     * back from its disk for partitions other members now hold). A push offers each holder the entries' runs first and
     * sends only what its disk lacks: after a restart of every node, each partition's history is on the disks of its
     * last owner and backup, and the new partition table often names them again, so most of it need not travel.
     *
     * Threads and size
     *
     * A share of any size travels in bounded memory: Hazelcast's chunked migration asks this service for the share's
     * operations one at a time (newChunkSupplier), each a run of SHARE_RUN entries read from the disk as it is asked for
     * (on the partition's thread, or on Hazelcast's async thread for the messages after the first), and sends them in
     * messages of about the master's chunk size (HazelcastConfigs), one after the other, each run written to the
     * receiving disk on the partition's thread as it arrives. No operation of a partition runs while it migrates, so
     * the runs, read one after the other, see one state of it. The share is this service's one namespace, so Hazelcast's
     * anti-entropy, which compares backup versions per namespace, never sends it again unasked; a new backup after a
     * crash is a migration, which sends it.
     */

    public static final String SERVICE_NAME = "partita:disk-shares";
    /** The entries one operation of a share carries: about 400 KB at 100 bytes an entry. */
    public static final int SHARE_RUN = 4_096;
    private static final ServiceNamespace SHARE = new DistributedObjectNamespace(SERVICE_NAME, "share");

    private final int backups;
    /** Per partition, the migrations under way that bring it to this member (between their before and their end). */
    private final AtomicIntegerArray arriving = new AtomicIntegerArray(HazelcastConfigs.PARTITION_COUNT);
    private volatile NodeEngine engine;
    /** Share operations this member has written to its disk, and their entries, since it started. */
    private final AtomicLong runsReceived = new AtomicLong();
    private final AtomicLong entriesReceived = new AtomicLong();
    /** Per partition, the number of the run of a share this member expects next ({@link Share}). */
    private final AtomicIntegerArray nextRun = new AtomicIntegerArray(HazelcastConfigs.PARTITION_COUNT);

    private DiskShares(int backups) {
        this.backups = backups;
    }

    static void register(Config config, int backups) {
        ConfigAccessor.getServicesConfig(config).addServiceConfig(new ServiceConfig().setEnabled(true)
                .setName(SERVICE_NAME).setImplementation(new DiskShares(backups)));
    }

    /**
     * Writes {@code entries} of {@code partition} (one per account and seq) to the disks of the partition's owner and
     * backups, where an account and seq is not held yet ({@code JournalStore.writeAbsent}); the calling member's disk is
     * left alone. Each holder is first offered the entries' runs (an account's consecutive seqs, {@link Offer}) and is
     * sent, {@code chunk} entries at a time, only the runs its disk lacks any of ({@link Fill}): after a restart, most
     * holders hold most of a partition's history already. Offered again to the holders of the moment while the
     * partition's holders change meanwhile. Answers what was sent, and the partition's version in the partition table
     * while the holders it reached held it, so that a caller can tell later whether they have changed since. Waited
     * for on the caller's thread (the ledger's disk thread); a failure is thrown as the grid threw it, and the whole
     * push may be repeated.
     */
    public static Pushed push(HazelcastInstance hazelcast, int partition, List<StoredEntry> entries, int chunk) {
        NodeEngineImpl engine = Internals.nodeEngine(hazelcast);
        int backups = engine.<DiskShares>getService(SERVICE_NAME).backups;
        UUID local = engine.getLocalMember().getUuid();
        List<StoredEntry> sorted = new ArrayList<>(entries);
        List<SeqRun> runs = SeqRun.of(sorted);
        int[] starts = SeqRun.starts(runs);
        long sent = 0;
        Holders offered;
        do {
            offered = Holders.of(engine, partition, backups);
            // Every holder is asked at once; each is then sent what it lacks.
            List<InvocationFuture<int[]>> answers = new ArrayList<>();
            for (int replica = 0; replica < offered.replicas().size(); replica++) {
                PartitionReplica holder = offered.replicas().get(replica);
                answers.add(runs.isEmpty() || holder == null || holder.uuid().equals(local) ? null
                        : DiskShares.invokeOn(engine, new Offer(runs), partition, replica));
            }
            for (int replica = 0; replica < answers.size(); replica++) {
                if (answers.get(replica) == null) {
                    continue;
                }
                int[] lacking = answers.get(replica).joinInternal();
                List<StoredEntry> missing = new ArrayList<>();
                for (int run : lacking) {
                    missing.addAll(sorted.subList(starts[run], starts[run + 1]));
                }
                for (int from = 0; from < missing.size(); from += chunk) {
                    List<StoredEntry> part = List.copyOf(missing.subList(from, Math.min(missing.size(), from + chunk)));
                    DiskShares.<Object>invokeOn(engine, new Fill(part), partition, replica).joinInternal();
                }
                sent += missing.size();
            }
        } while (!offered.equals(Holders.of(engine, partition, backups)));
        return new Pushed(sent, offered.version());
    }

    /** What a {@link #push} sent, and the partition table's version of the partition whose holders it reached. */
    public record Pushed(long sent, int holdersVersion) {
    }

    /** The partition table's version of {@code partition} on this member: it changes whenever its holders do. */
    public static int holdersVersion(HazelcastInstance hazelcast, int partition) {
        return table(Internals.nodeEngine(hazelcast), partition).version();
    }

    /** Whether a migration of {@code partition} is under way on this member (as its source or destination). */
    public static boolean migrating(HazelcastInstance hazelcast, int partition) {
        return table(Internals.nodeEngine(hazelcast), partition).isMigrating();
    }

    /** {@code partition}'s entry in this member's partition table: its replicas and version. */
    private static InternalPartition table(NodeEngineImpl engine, int partition) {
        return engine.getPartitionService().getPartition(partition, false);
    }

    /**
     * A partition's owner and backups at one moment, by replica index (null where there is none), and its version in
     * the partition table: a push that reached them is over once the partition still has them.
     */
    private record Holders(int version, List<PartitionReplica> replicas) {

        static Holders of(NodeEngineImpl engine, int partition, int backups) {
            InternalPartition table = table(engine, partition);
            List<PartitionReplica> replicas = new ArrayList<>();
            for (int replica = 0; replica <= backups; replica++) {
                replicas.add(table.getReplica(replica));
            }
            return new Holders(table.version(), replicas);
        }
    }

    /** {@code operation} on the partition's replica {@code replica} (0, its owner). */
    private static <T> InvocationFuture<T> invokeOn(NodeEngine engine, Operation operation, int partition,
                                                    int replica) {
        return engine.getOperationService().createInvocationBuilder(SERVICE_NAME, operation, partition)
                .setReplicaIndex(replica).invoke();
    }

    /**
     * Up to {@code limit} of an account's entries with a seq below {@code beforeSeq}, newest first, from its owner's
     * disk (none in memory mode).
     */
    public static CompletableFuture<HistoryPage> history(HazelcastInstance hazelcast, String accountId,
                                                         long beforeSeq, int limit) {
        return DiskShares.<Page>invoke(hazelcast, new Read(accountId, null, beforeSeq, limit), partitionOf(hazelcast,
                accountId)).thenApply(Page::history);
    }

    /**
     * The entry recorded on {@code accountId} under {@code txId} with a seq at most {@code throughSeq}, if its owner's
     * disk holds it ({@code JournalStore.find}).
     */
    public static CompletableFuture<Optional<StoredEntry>> find(HazelcastInstance hazelcast, String accountId,
                                                               String txId, long throughSeq) {
        return DiskShares.<Page>invoke(hazelcast, new Read(accountId, txId, throughSeq, 1),
                partitionOf(hazelcast, accountId)).thenApply(page -> page.history().entries().stream().findFirst());
    }

    /**
     * Asks every member of the cluster to write every copy it holds to its disk again ({@link MemberDisk#rewriteAll}):
     * a split-brain merge put values into the maps of the members it merged into, owners and backups, without the
     * ledger's entry processors, so their disks lack them until then.
     */
    public static void rewriteEverywhere(HazelcastInstance hazelcast) {
        OperationService operations = Internals.nodeEngine(hazelcast).getOperationService();
        for (Member member : hazelcast.getCluster().getMembers()) {
            operations.invokeOnTarget(SERVICE_NAME, new Rewrite(), member.getAddress());
        }
    }

    private static int partitionOf(HazelcastInstance hazelcast, String accountId) {
        return hazelcast.getPartitionService().getPartition(accountId).getPartitionId();
    }

    private static <T> CompletableFuture<T> invoke(HazelcastInstance hazelcast, Operation operation, int partition) {
        return Internals.nodeEngine(hazelcast).getOperationService()
                .<T>invokeOnPartition(SERVICE_NAME, operation, partition).toCompletableFuture();
    }

    @Override
    public void init(NodeEngine nodeEngine, Properties properties) {
        this.engine = nodeEngine;
    }

    @Override
    public void reset() {
    }

    @Override
    public void shutdown(boolean terminate) {
    }

    /**
     * Whether this member's disk has a share of the event's partition to send: none while the recovery holds it back,
     * which it then offers again once the migration is over ({@link MemberDisk#shareWithheld}).
     */
    private boolean sends(PartitionReplicationEvent event) {
        MemberDisk disk = MemberDisk.of(engine.getHazelcastInstance());
        int partition = event.getPartitionId();
        if (!disk.onDisk() || event.getReplicaIndex() > backups) {
            return false;
        }
        if (disk.shareHeldBack(partition)) {
            disk.shareWithheld(partition, holdersVersion(engine.getHazelcastInstance(), partition));
            return false;
        }
        return true;
    }

    @Override
    public Collection<ServiceNamespace> getAllServiceNamespaces(PartitionReplicationEvent event) {
        return sends(event) ? List.of(SHARE) : List.of();
    }

    @Override
    public boolean isKnownServiceNamespace(ServiceNamespace namespace) {
        return SHARE.equals(namespace);
    }

    /** The share in one operation, where Hazelcast's fragmented migration is turned off. */
    @Override
    public Operation prepareReplicationOperation(PartitionReplicationEvent event) {
        return prepareReplicationOperation(event, getAllServiceNamespaces(event));
    }

    /** The share in one operation, where Hazelcast's chunked migration is turned off; see {@link #newChunkSupplier}. */
    @Override
    public Operation prepareReplicationOperation(PartitionReplicationEvent event,
                                                 Collection<ServiceNamespace> namespaces) {
        if (!namespaces.contains(SHARE) || !sends(event)) {
            return null;
        }
        List<StoredEntry> share = new ArrayList<>();
        MemberDisk.of(engine.getHazelcastInstance())
                .use(store -> store.export(event.getPartitionId(), SHARE_RUN, share::addAll));
        return share.isEmpty() ? null : new Share(share, 0);
    }

    /**
     * The partition's share of this member's disk, for the member that becomes its owner or a backup, as operations
     * of {@link #SHARE_RUN} entries each, read as Hazelcast asks for them; none while the recovery holds it back.
     */
    @Override
    public ChunkSupplier newChunkSupplier(PartitionReplicationEvent event, Collection<ServiceNamespace> namespaces) {
        return new ShareRuns(event.getPartitionId(), event.getReplicaIndex(),
                namespaces.contains(SHARE) && sends(event));
    }

    /** What the migrations to this member have brought to its disk since it started. */
    public static Received received(HazelcastInstance hazelcast) {
        DiskShares shares = Internals.nodeEngine(hazelcast).getService(SERVICE_NAME);
        return new Received(shares.runsReceived.get(), shares.entriesReceived.get());
    }

    /** Share operations (runs of at most {@link #SHARE_RUN} entries) written to a member's disk, and their entries. */
    public record Received(long runs, long entries) {
    }

    /**
     * A partition's share, a run at a time: each {@link #next} reads the next run from the disk, starting where the
     * last one stopped, so that the sending member never holds more than a run and the message being filled.
     */
    private final class ShareRuns implements ChunkSupplier {

        private final int partition;
        private final int replica;
        /** The run read ahead by {@link #hasNext} and not handed out yet. */
        private SharePage ahead;
        private byte[] from;
        private boolean done;
        private int runs;

        ShareRuns(int partition, int replica, boolean sends) {
            this.partition = partition;
            this.replica = replica;
            this.done = !sends;
        }

        @Override
        public boolean hasNext() {
            if (ahead == null && !done) {
                ahead = MemberDisk.of(engine.getHazelcastInstance())
                        .read(store -> store.share(partition, from, SHARE_RUN), null);
                if (ahead == null) {
                    // The store closed (the member is stopping): a share cut short must fail its migration.
                    throw new IllegalStateException("This member's disk closed while partition " + partition
                            + "'s share was being sent");
                }
                done = ahead.last();
                from = ahead.next();
            }
            return ahead != null && !ahead.entries().isEmpty();
        }

        @Override
        public Operation next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Share run = new Share(ahead.entries(), runs++);
            ahead = null;
            run.setPartitionId(partition).setReplicaIndex(replica).setServiceName(SERVICE_NAME).setNodeEngine(engine);
            return run;
        }
    }

    /**
     * Whether a migration is bringing {@code partition} to this member now: from before its share is written until the
     * partition table says this member holds it. A member must not drop a partition from its disk meanwhile (it would
     * delete the share that just arrived), though it does not hold it yet.
     */
    public static boolean arriving(HazelcastInstance hazelcast, int partition) {
        DiskShares shares = Internals.nodeEngine(hazelcast).getService(SERVICE_NAME);
        return shares.arriving.get(partition) > 0;
    }

    @Override
    public void beforeMigration(PartitionMigrationEvent event) {
        if (event.getMigrationEndpoint() == MigrationEndpoint.DESTINATION) {
            arriving.incrementAndGet(event.getPartitionId());
        }
    }

    /**
     * The copy a migration brought goes to this member's disk now, on the partition's thread, before the migration
     * completes: the member that sent it may drop it from its own disk right after, and a stop of every node may come
     * before this member's disk thread would have written it (a graceful stop of all at once migrates partitions
     * between members whose disk threads have already stopped).
     */
    @Override
    public void commitMigration(PartitionMigrationEvent event) {
        int index = event.getNewReplicaIndex();
        if (event.getMigrationEndpoint() == MigrationEndpoint.DESTINATION && index >= 0 && index <= backups) {
            MemberDisk.of(engine.getHazelcastInstance()).copyArrived(event.getPartitionId());
        }
        arrived(event);
    }

    @Override
    public void rollbackMigration(PartitionMigrationEvent event) {
        arrived(event);
    }

    private void arrived(PartitionMigrationEvent event) {
        if (event.getMigrationEndpoint() == MigrationEndpoint.DESTINATION) {
            arriving.getAndUpdate(event.getPartitionId(), count -> Math.max(0, count - 1));
        }
    }

    private static MemberDisk disk(Operation operation) {
        return MemberDisk.of(operation.getNodeEngine().getHazelcastInstance());
    }

    /** Entries of the partition it runs on, for this member's disk. */
    abstract static class WriteEntries extends Operation implements Identified {

        private List<StoredEntry> entries;

        WriteEntries() {
        }

        WriteEntries(List<StoredEntry> entries) {
            this.entries = entries;
        }

        List<StoredEntry> entries() {
            return entries;
        }

        @Override
        protected void writeInternal(ObjectDataOutput out) throws IOException {
            writeEntries(out, entries);
        }

        @Override
        protected void readInternal(ObjectDataInput in) throws IOException {
            entries = readEntries(in);
        }
    }

    /**
     * A run of a partition's share from its holder, for a member that becomes its owner or a backup: every entry written
     * (one under an account and seq the disk holds replaces it). Runs are numbered from 0 within one sending of the
     * share; a run that does not follow the last one this member wrote of the partition fails, and with it the
     * migration, which Hazelcast then runs again from the first run. (Hazelcast serializes a message again when it
     * retries sending it, and the runs it then reads are the next ones: those of the lost message would be missing.)
     */
    @ClassId(87)
    public static final class Share extends WriteEntries implements BackupOperation {

        private int run;

        public Share() {
        }

        Share(List<StoredEntry> entries, int run) {
            super(entries);
            this.run = run;
        }

        @Override
        public void run() {
            int partition = getPartitionId();
            DiskShares shares = getNodeEngine().getService(SERVICE_NAME);
            int expected = shares.nextRun.get(partition);
            if (run != 0 && run != expected) {
                throw new IllegalStateException("Run " + run + " of partition " + partition + "'s disk share came after "
                        + "run " + (expected - 1) + ": the runs between were lost, so the migration runs again");
            }
            if (disk(this).use(store -> store.writeNow(partition, entries(), List.of(), false))) {
                shares.runsReceived.incrementAndGet();
                shares.entriesReceived.addAndGet(entries().size());
            }
            shares.nextRun.set(partition, run + 1);
        }

        @Override
        protected void writeInternal(ObjectDataOutput out) throws IOException {
            super.writeInternal(out);
            out.writeInt(run);
        }

        @Override
        protected void readInternal(ObjectDataInput in) throws IOException {
            super.readInternal(in);
            run = in.readInt();
        }
    }

    /** {@link DiskShares#push}, on one holder: the entries its disk lacks are written, the others left as they are. */
    @ClassId(88)
    public static final class Fill extends WriteEntries implements PartitionAwareOperation {

        public Fill() {
        }

        Fill(List<StoredEntry> entries) {
            super(entries);
        }

        @Override
        public void run() {
            int partition = getPartitionId();
            disk(this).use(store -> store.writeAbsent(partition, entries()));
        }
    }

    /**
     * {@link DiskShares#push}, on one holder: answers the indexes of the runs its disk lacks an entry of ({@code
     * JournalStore.lacking}); none without a disk, where nothing would be written.
     */
    @ClassId(93)
    public static final class Offer extends Operation implements Identified, PartitionAwareOperation,
            ReadonlyOperation {

        private List<SeqRun> runs;
        private transient int[] lacking;

        public Offer() {
        }

        Offer(List<SeqRun> runs) {
            this.runs = runs;
        }

        @Override
        public void run() {
            int partition = getPartitionId();
            lacking = disk(this).read(store -> store.lacking(partition, runs).stream().toArray(), new int[0]);
        }

        @Override
        public Object getResponse() {
            return lacking;
        }

        @Override
        protected void writeInternal(ObjectDataOutput out) throws IOException {
            out.writeInt(runs.size());
            for (SeqRun run : runs) {
                out.writeString(run.accountId());
                out.writeLong(run.newest());
                out.writeLong(run.oldest());
            }
        }

        @Override
        protected void readInternal(ObjectDataInput in) throws IOException {
            int count = in.readInt();
            runs = new ArrayList<>(Math.min(count, 4_096));
            for (int i = 0; i < count; i++) {
                runs.add(new SeqRun(in.readString(), in.readLong(), in.readLong()));
            }
        }
    }

    /** {@link DiskShares#history} or {@link DiskShares#find}, at the partition's owner; answers a {@link Page}. */
    @ClassId(89)
    public static final class Read extends Operation implements Identified, PartitionAwareOperation, ReadonlyOperation {

        private String accountId;
        /** The txId of the one entry to find, or null for a page of history. */
        private String txId;
        /** A page's entries are below it; the entry found is at most it. */
        private long seq;
        private int limit;
        private transient Page page;

        public Read() {
        }

        Read(String accountId, String txId, long seq, int limit) {
            this.accountId = accountId;
            this.txId = txId;
            this.seq = seq;
            this.limit = limit;
        }

        @Override
        public void run() {
            int partition = getPartitionId();
            HistoryPage read = disk(this).read(store -> txId != null
                    ? new HistoryPage(store.find(partition, accountId, txId, seq).stream().toList(), -1)
                    : store.history(partition, accountId, seq, limit), new HistoryPage(List.of(), -1));
            page = new Page(read);
        }

        @Override
        public Object getResponse() {
            return page;
        }

        @Override
        protected void writeInternal(ObjectDataOutput out) throws IOException {
            out.writeString(accountId);
            out.writeString(txId);
            out.writeLong(seq);
            out.writeInt(limit);
        }

        @Override
        protected void readInternal(ObjectDataInput in) throws IOException {
            accountId = in.readString();
            txId = in.readString();
            seq = in.readLong();
            limit = in.readInt();
        }
    }

    /** {@link DiskShares#rewriteEverywhere}, on one member. */
    @ClassId(91)
    public static final class Rewrite extends Operation implements Identified {

        public Rewrite() {
        }

        @Override
        public void run() {
            disk(this).rewriteAll();
        }
    }

    /** A {@link HistoryPage} on the wire. */
    @ClassId(90)
    public static final class Page implements Identified {

        private HistoryPage history;

        public Page() {
        }

        Page(HistoryPage history) {
            this.history = history;
        }

        HistoryPage history() {
            return history;
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            writeEntries(out, history.entries());
            out.writeLong(history.nextBefore());
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            List<StoredEntry> entries = readEntries(in);
            history = new HistoryPage(entries, in.readLong());
        }
    }

    private static void writeEntries(ObjectDataOutput out, List<StoredEntry> entries) throws IOException {
        out.writeInt(entries.size());
        for (StoredEntry entry : entries) {
            out.writeString(entry.accountId());
            out.writeLong(entry.seq());
            out.writeString(entry.txId());
            out.writeLong(entry.at());
            out.writeByteArray(entry.payload());
        }
    }

    private static List<StoredEntry> readEntries(ObjectDataInput in) throws IOException {
        int count = in.readInt();
        List<StoredEntry> entries = new ArrayList<>(Math.min(count, 4_096));
        for (int i = 0; i < count; i++) {
            entries.add(new StoredEntry(in.readString(), in.readLong(), in.readString(), in.readLong(),
                    in.readByteArray()));
        }
        return entries;
    }
}
