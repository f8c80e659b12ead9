package io.partita.node;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.internal.partition.InternalPartition;
import com.hazelcast.internal.partition.PartitionReplica;
import com.hazelcast.map.IMap;
import com.hazelcast.spi.exception.RetryableHazelcastException;
import com.hazelcast.spi.impl.NodeEngineImpl;
import com.hazelcast.spi.impl.operationservice.Operation;
import com.hazelcast.spi.impl.operationservice.ReadonlyOperation;
import com.hazelcast.spi.impl.operationservice.impl.InvocationFuture;
import io.partita.store.Durability;
import io.partita.store.JournalStore;
import io.partita.store.StoreSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * A member's own disk: the {@link JournalStore} in its directory under {@code partita.data-dir}, opened when the
 * member starts and closed once it has stopped, or nothing at all with {@code partita.durability=memory}. What goes on
 * it, and how a restart reads it back, is the ledger's business ({@code account.LedgerDisk}); this class owns the
 * store's life, says whether the data on it is being recovered, and tells the cluster whether this member came back
 * with data ({@link #DISKS}), so that a member with an empty disk does not start a new ledger beside it.
 *
 * <p>A member takes part in the cluster (it holds replicas, it receives writes) before its start has opened the store
 * and started the ledger: everything a restart needs to know about the disk is therefore set where the store opens,
 * on whichever thread touches it first, and the other members ask a member itself whether its disk found data and is
 * still being joined ({@link Ask}), which opens its store if nothing had yet. A member never waits for another to
 * announce itself.
 *
 * <p>Threads: {@link #use} is called on partition threads (a write-through) and on the ledger's own thread; a read
 * lock lets them all in at once, and the close takes the write lock, so no thread ever touches a closed store (which
 * would crash the process in native code). The recovery flag is volatile.
 */
public final class MemberDisk {

    /** Member name to whether it found data on its disk at start. */
    public static final String DISKS = "partita-disks";

    private static final Logger LOG = LoggerFactory.getLogger(MemberDisk.class);
    private static final String USER_CONTEXT_KEY = "partita.member-disk";
    private static final String SETTINGS_KEY = "partita.member-disk-settings";
    /** The member attribute naming a member's data directory when {@code partita.member-name} is set. */
    static final String NAME_ATTRIBUTE = "partita.member-name";

    /** What {@code partita.durability}, {@code partita.data-dir} and {@code partita.member-name} say. */
    record Settings(Durability durability, Path dataDir, String memberName) {
    }

    private final HazelcastInstance hazelcast;
    private final Settings settings;
    private final ReadWriteLock closing = new ReentrantReadWriteLock();
    /** Set once, by {@link #opened}, under this object's lock; read without it once set. */
    private volatile JournalStore store;
    private volatile String name;
    private volatile boolean foundData;
    private boolean closed;
    private volatile boolean recovering;
    /** Whether this member found data and has not joined all of it into the cluster yet ({@link #joined}). */
    private volatile boolean joining;
    /** Whether this member found data and has not offered its older history to the holders yet ({@link #offered}). */
    private volatile boolean offering;
    /**
     * 1 for each partition this disk found, until the ledger has joined its copy into the cluster ({@link
     * #partitionJoined}).
     */
    private final AtomicIntegerArray unjoined = new AtomicIntegerArray(HazelcastConfigs.PARTITION_COUNT);
    /** Counts the requests for every copy this member holds to go to its disk again ({@link #rewriteAll}). */
    private final AtomicLong rewritesAsked = new AtomicLong(1);
    /** The last request a round took up; only the ledger's disk thread reads and changes it. */
    private long rewritesTaken;
    /** 1 for each partition whose disk share a migration does not carry from here ({@link #shareHeldBack}). */
    private final AtomicIntegerArray heldBack = new AtomicIntegerArray(HazelcastConfigs.PARTITION_COUNT);
    /**
     * For each partition, 1 + its holders' version when a migration from here went without its held-back share
     * ({@link #shareWithheld}); 0 for none.
     */
    private final AtomicIntegerArray withheld = new AtomicIntegerArray(HazelcastConfigs.PARTITION_COUNT);
    /** Whether a memory-mode member has looked for data it leaves alone ({@link #warnOfIgnoredData}). */
    private boolean warnedOfIgnoredData;
    /** Writes a copy a migration brought ({@link #copyArrived}); set by the ledger, null until it starts. */
    private volatile IntConsumer arrivals;
    /** The members this disk last recorded ({@link #lastMembersPresent}); read as the store opens. */
    private volatile Set<String> lastMembers = Set.of();
    /**
     * Whether this member records the cluster's members on its disk at each change: from the start when it found no
     * data, once its recovery is over when it did (until then its record is what its copy can be vouched for by), and
     * never again once it stops (a stop of every node would otherwise leave each disk's record shrunk to itself).
     */
    private volatile boolean recordingMembers;
    private volatile boolean stopping;
    private final Object recordLock = new Object();
    @GuardedBy("recordLock")
    private boolean recordAgainLater;

    /** Opens nothing: two threads may build one at once ({@link PerMember}), and the one kept opens the store. */
    private MemberDisk(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        Object configured = hazelcast.getUserContext().get(SETTINGS_KEY);
        this.settings = configured instanceof Settings s ? s : new Settings(Durability.MEMORY, null, null);
    }

    /**
     * In memory mode, says once that a data directory this member would use holds data, which it leaves untouched and
     * does not serve: a node restarted in memory mode by mistake starts an empty ledger beside it.
     */
    private void warnOfIgnoredData() {
        if (warnedOfIgnoredData || settings.dataDir() == null) {
            return;
        }
        warnedOfIgnoredData = true;
        Path directory = StoreSettings.memberDirectory(settings.dataDir(), memberName(hazelcast, settings.memberName()));
        if (Files.exists(directory.resolve("CURRENT"))) {
            LOG.warn("This node runs in memory mode: it neither reads nor writes the data in {}, which a durable run "
                    + "of this member left, and its ledger starts empty. Start it with PARTITA_DURABILITY=flush (or "
                    + "fsync) to serve that data", directory.toAbsolutePath());
        }
    }

    /**
     * Opens the store the first time it is asked for, from whichever thread asks first (the member's start, or an
     * entry processor that reached the member before that): one store per member, however many threads ask at once.
     */
    private synchronized JournalStore opened() {
        if (!settings.durability().onDisk()) {
            warnOfIgnoredData();
            return null;
        }
        if (store != null || closed) {
            return store;
        }
        name = memberName(hazelcast, settings.memberName());
        Path directory = StoreSettings.memberDirectory(settings.dataDir(), name);
        JournalStore opening = JournalStore.open(StoreSettings.of(directory, settings.durability()));
        String cluster = hazelcast.getConfig().getClusterName();
        String other = opening.marker().map(marker -> marker.clusterName()).filter(n -> !n.equals(cluster))
                .orElse(null);
        if (other != null) {
            opening.close();
            throw new IllegalStateException("The data directory " + directory.toAbsolutePath() + " holds the data "
                    + "of cluster '" + other + "', not of '" + cluster + "': start this member with that cluster's "
                    + "name, or with a data directory of its own");
        }
        foundData = opening.marker().isPresent();
        lastMembers = foundData ? opening.members() : Set.of();
        recordingMembers = !foundData;
        recovering = foundData;
        joining = foundData;
        offering = foundData;
        BitSet held = foundData ? opening.heldPartitions() : new BitSet();
        held.stream().forEach(partition -> {
            heldBack.set(partition, 1);
            unjoined.set(partition, 1);
        });
        LOG.info("Member data in {} ({}), {}", directory.toAbsolutePath(),
                settings.durability().name().toLowerCase(Locale.ROOT),
                foundData ? held.cardinality() + " partitions held when it last ran" : "empty");
        hazelcast.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN) {
                stopping = true;
            } else if (event.getState() == LifecycleEvent.LifecycleState.SHUTDOWN) {
                close();
            }
        });
        hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                recordMembersLater();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                recordMembersLater();
            }
        });
        store = opening;
        recordMembersLater();
        return opening;
    }

    /**
     * Records the members present now on the disk ({@link JournalStore#recordMembers}), off the calling thread (a
     * membership event's, or a partition thread that opened the store), if this member records them at this point.
     */
    private void recordMembersLater() {
        if (recordingMembers && !stopping) {
            CompletableFuture.runAsync(this::recordMembers);
        }
    }

    /**
     * One record at a time, each of the members present when it is written, so the last one written is the newest. A
     * member that does not hear from a majority (the smaller side of a network split, which refuses writes) records
     * nothing: the other side goes on without it, and its copies fall behind.
     */
    private void recordMembers() {
        synchronized (recordLock) {
            if (!recordingMembers || stopping || !hazelcast.getLifecycleService().isRunning()) {
                return;
            }
            if (!HazelcastConfigs.majorityPresent(hazelcast)) {
                // Looked at again each second (one loop at a time) until a majority is back, or it stops.
                if (!recordAgainLater) {
                    recordAgainLater = true;
                    CompletableFuture.runAsync(this::recordMembersAgain,
                            CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS));
                }
                return;
            }
            try {
                Set<String> names = new TreeSet<>();
                hazelcast.getCluster().getMembers().forEach(member -> names.add(nameOf(member)));
                use(store -> store.recordMembers(names));
            } catch (RuntimeException e) {
                LOG.warn("Could not record the cluster's members on this member's disk: {}", e.toString());
            }
        }
    }

    private void recordMembersAgain() {
        synchronized (recordLock) {
            recordAgainLater = false;
            recordMembers();
        }
    }

    /**
     * Whether a majority of the members this disk last recorded is present, by member name (itself included): true when
     * it found no data or no record. A member whose disk is behind (it stopped or crashed while the others went on)
     * cannot tell that from its own disk; the members it last saw can, and those that went on without it recorded a
     * cluster without it. So a restart puts back what its disk holds only once a majority of those it last saw is
     * present: alone after a stop of every node, a member that had been left behind waits, rather than serving its
     * older copies as current, answering 404 for accounts opened after it left and applying retried txIds again.
     */
    public boolean lastMembersPresent() {
        ensureOpened();
        Set<String> last = lastMembers;
        if (last.isEmpty()) {
            return true;
        }
        long present = hazelcast.getCluster().getMembers().stream().map(MemberDisk::nameOf).filter(last::contains)
                .count();
        return present * 2 > last.size();
    }

    /** The members this disk last recorded before this start (empty when it found no data or no record). */
    public Set<String> lastMembers() {
        ensureOpened();
        return lastMembers;
    }

    /** Carries the settings to the member, whose first {@link #of} opens the store. */
    static void configure(Config config, PartitaProperties properties) {
        Durability durability = properties.durability() == null ? Durability.MEMORY : properties.durability();
        Path dataDir = properties.dataDir() == null ? Path.of("partita-data") : Path.of(properties.dataDir());
        config.getUserContext().put(SETTINGS_KEY, new Settings(durability, dataDir, properties.memberName()));
        if (properties.memberName() != null && !properties.memberName().isBlank()) {
            config.getMemberAttributeConfig().setAttribute(NAME_ATTRIBUTE, properties.memberName());
        }
    }

    public static MemberDisk of(HazelcastInstance hazelcast) {
        return PerMember.of(hazelcast, USER_CONTEXT_KEY, MemberDisk.class, MemberDisk::new);
    }

    /** Opens the disk as the member starts, and tells the cluster whether this member came back with data. */
    static MemberDisk open(HazelcastInstance member) {
        MemberDisk disk = of(member);
        disk.opened();
        if (disk.foundData) {
            Members.repeatUntilDone(() -> disks(member).put(disk.name, Boolean.TRUE));
        }
        return disk;
    }

    /** This member has offered the older history of every partition its disk holds ({@link #othersOffering}). */
    public void offered() {
        offering = false;
    }

    /** Whether this member found data on its disk and has not offered all of its older history yet. */
    public boolean offering() {
        ensureOpened();
        return offering;
    }

    /**
     * Whether another member present is still offering the older history it found on its disk, or could not say. A
     * recovery joins its accounts only once none is: an entry that is older history on one disk (before the hold of
     * that copy's newest) may be recent on another (whose copy stopped a moment earlier), and a join checks a txId
     * against the owner's disk, so that disk must hold what the first offers before the second joins; otherwise the
     * join takes the entry for one the account does not count and applies it again (found from outside, after a
     * stop of every node by SIGTERM, whose members stop seconds apart).
     */
    public boolean othersOffering() {
        return othersSay(Ask.OFFERING);
    }

    /** This member has joined every partition its disk holds into the cluster ({@link #othersJoining}). */
    public void joined() {
        joining = false;
    }

    /** Whether this member found data on its disk and has not joined all of it into the cluster yet. */
    public boolean joining() {
        ensureOpened();
        return joining;
    }

    /**
     * Whether another member present is still joining the data it found on its disk into the cluster, or could not say
     * (it is busy, or leaving). Until none is, a restarted cluster does not serve the partitions it recovers: a copy
     * that is behind (a member that stopped earlier) may come first, and a write on it would take a seq that a newer
     * copy still to come holds for another transaction. Each member is asked ({@link Ask}), so that one whose start is
     * slow counts from the moment it is present.
     */
    public boolean othersJoining() {
        return othersSay(Ask.JOINING);
    }

    /** Whether another member present answers {@code bit} ({@link Ask}), or could not say. */
    private boolean othersSay(int bit) {
        try {
            return others().stream().anyMatch(answer -> (answer & bit) != 0);
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * What each other member present says of its disk ({@link Ask}); a member that leaves meanwhile says nothing. A
     * failure of any other kind is thrown.
     */
    private List<Integer> others() {
        NodeEngineImpl engine = Internals.nodeEngine(hazelcast);
        List<Member> asked = new ArrayList<>();
        List<InvocationFuture<Integer>> answers = new ArrayList<>();
        for (Member member : hazelcast.getCluster().getMembers()) {
            if (!member.localMember()) {
                asked.add(member);
                // Tried twice, not Hazelcast's 250 times: a member that left meanwhile is not waited for.
                answers.add(engine.getOperationService().createInvocationBuilder(DiskShares.SERVICE_NAME,
                        new Ask(), member.getAddress()).setTryCount(2).invoke());
            }
        }
        List<Integer> said = new ArrayList<>();
        for (int i = 0; i < asked.size(); i++) {
            try {
                said.add(answers.get(i).joinInternal());
            } catch (RuntimeException e) {
                if (hazelcast.getCluster().getMembers().contains(asked.get(i))) {
                    throw e;
                }
            }
        }
        return said;
    }

    public Durability durability() {
        return settings.durability();
    }

    /** Whether this member keeps a store ({@code flush} or {@code fsync}). */
    public boolean onDisk() {
        return settings.durability().onDisk();
    }

    /** The subdirectory of this member's data: its member name, or its address and port; null in memory mode. */
    public String name() {
        opened();
        return name;
    }

    /** Whether this member found data on its disk at start. */
    public boolean foundData() {
        ensureOpened();
        return foundData;
    }

    /**
     * Opens the store if no thread has yet; once it is open, without taking the lock (what the opening sets is written
     * before the store is published).
     */
    private void ensureOpened() {
        if (store == null) {
            opened();
        }
    }

    /**
     * Whether the ledger may be new: no member present found data on its disk. Otherwise a partition that no disk has
     * brought back yet is lost, not empty.
     */
    boolean clusterMayBeNew() {
        return !foundData && !disks(hazelcast).containsValue(Boolean.TRUE) && Members.repeatUntilDone(() -> {
            try {
                return others();
            } catch (RuntimeException e) {
                // A member present that did not answer in time (a busy machine), or could not open its disk (it then
                // stops and leaves): asked again, as a retryable failure.
                throw new RetryableHazelcastException("A member did not say whether its disk holds data", e);
            }
        }).stream().noneMatch(answer -> (answer & Ask.FOUND_DATA) != 0);
    }

    /** Whether the data this member found is still being put back into the cluster (readiness is DOWN meanwhile). */
    public boolean recovering() {
        return recovering;
    }

    /** The recovery is over: readiness may say UP, and this member records the cluster's members from now on. */
    public void recovered() {
        recovering = false;
        recordingMembers = true;
        recordMembersLater();
    }

    /**
     * Whether the copy of {@code partition} this disk found is still to be joined into the cluster: until then a write
     * there must not replace the account records this disk holds, which may be newer than the cluster's (another
     * disk's copy, read first, may be behind). Any thread; set from the moment the store opens, before any write.
     */
    public boolean unjoined(int partition) {
        ensureOpened();
        return unjoined.get(partition) != 0;
    }

    /** The ledger has joined this disk's copy of {@code partition} into the cluster ({@link #unjoined}). */
    public void partitionJoined(int partition) {
        unjoined.set(partition, 0);
    }

    /** Migrations of {@code partition} carry its disk share again ({@link #shareHeldBack}). Any thread. */
    public void releaseShare(int partition) {
        heldBack.set(partition, 0);
    }

    /**
     * Whether a migration of {@code partition} from this member carries no disk share now: from the store's opening,
     * for each partition this disk found, until the recovery has offered its history ({@link #releaseShare}). That
     * history goes to the partition's holders through the recovery's offers, which send only what their disks lack,
     * rather than whole with every migration of a restart (the first member to start holds every partition until the
     * others join). Any thread.
     */
    public boolean shareHeldBack(int partition) {
        opened();
        return heldBack.get(partition) != 0;
    }

    /**
     * A migration of {@code partition} from here, its holders at {@code holdersVersion} in the partition table, goes
     * without the disk share it holds back: the member it goes to may lack the history the recovery offers to the
     * holders it finds, so the history is offered again once the migration is over, and this disk keeps the partition
     * until then (the ledger's disk thread: {@link #withheldAt}). Any thread.
     */
    public void shareWithheld(int partition, int holdersVersion) {
        withheld.set(partition, holdersVersion + 1);
    }

    /** The holders' version at which a migration of {@code partition} went without its share, or -1. Any thread. */
    public int withheldAt(int partition) {
        return withheld.get(partition) - 1;
    }

    /**
     * Forgets that a migration of {@code partition} went without its share, unless another has since ({@link
     * #shareWithheld}): answers whether it did. Any thread.
     */
    public boolean clearWithheld(int partition, int holdersVersion) {
        return withheld.compareAndSet(partition, holdersVersion + 1, 0);
    }

    /**
     * Asks for every copy this member holds to be written to its disk again, and every partition it no longer holds to
     * be dropped from it: after a split-brain merge, which changes maps without the ledger's entry processors. Starts
     * set (a restarted member's disk may hold partitions it no longer holds). Any thread.
     */
    public void rewriteAll() {
        rewritesAsked.incrementAndGet();
    }

    /** Sets what writes a copy that a migration brought to this member ({@link #copyArrived}). */
    public void onCopyArrived(IntConsumer writer) {
        arrivals = writer;
    }

    /**
     * A migration made this member the owner or a backup of {@code partition}, and its maps now hold the copy: the
     * ledger writes it to this disk before the migration completes. On that partition's thread.
     */
    void copyArrived(int partition) {
        IntConsumer writer = arrivals;
        if (writer != null) {
            writer.accept(partition);
        }
    }

    /**
     * The latest {@link #rewriteAll} request, which the round about to start serves, or -1 when every request was
     * taken up already. The ledger's disk thread.
     */
    public long takeRewrite() {
        long asked = rewritesAsked.get();
        if (asked == rewritesTaken) {
            return -1;
        }
        rewritesTaken = asked;
        return asked;
    }

    /** The latest {@link #rewriteAll} request: until a round that took it up has ended, it is not served. Any thread. */
    public long rewritesAsked() {
        return rewritesAsked.get();
    }

    /**
     * Runs {@code work} with the store, unless it is closed (or there is none): then it does nothing and answers false.
     * Any thread.
     */
    public boolean use(Consumer<JournalStore> work) {
        return read(store -> {
            work.accept(store);
            return true;
        }, false);
    }

    /** {@code work}'s answer with the store, or {@code ifNone} when it is closed or there is none. Any thread. */
    public <T> T read(Function<JournalStore, T> work, T ifNone) {
        JournalStore open = store != null ? store : opened();
        if (open == null) {
            return ifNone;
        }
        closing.readLock().lock();
        try {
            return closed ? ifNone : work.apply(open);
        } finally {
            closing.readLock().unlock();
        }
    }

    /** Whether this member holds a copy of {@code partition} now: its owner or one of its first {@code backups}. */
    public boolean holdsReplica(int partition, int backups) {
        NodeEngineImpl engine = Internals.nodeEngine(hazelcast);
        InternalPartition replicas = engine.getPartitionService().getPartition(partition, false);
        int index = replicas.getReplicaIndex(PartitionReplica.from(engine.getLocalMember()));
        return index >= 0 && index <= backups;
    }

    private void close() {
        closing.writeLock().lock();
        try {
            synchronized (this) {
                if (!closed) {
                    closed = true;
                    if (store != null) {
                        store.close();
                    }
                }
            }
        } finally {
            closing.writeLock().unlock();
        }
    }

    private static String memberName(HazelcastInstance hazelcast, String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return nameOf(hazelcast.getCluster().getLocalMember());
    }

    /** A member's name, which names its data directory: {@code partita.member-name}, or its address and port. */
    static String nameOf(Member member) {
        String configured = member.getAttribute(NAME_ATTRIBUTE);
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        InetSocketAddress address = member.getSocketAddress();
        return address.getHostString() + "_" + address.getPort();
    }

    /** The map of members that came back with data (see {@link #DISKS}). */
    static IMap<String, Boolean> disks(HazelcastInstance hazelcast) {
        return hazelcast.getMap(DISKS);
    }

    /**
     * Asks a member about its disk, opening its store if its start has not yet: answers {@link #FOUND_DATA} if it found
     * data there, with {@link #JOINING} until it has joined all of it into the cluster and {@link #OFFERING} until it
     * has offered all of its older history.
     */
    @ClassId(94)
    public static final class Ask extends Operation implements Identified, ReadonlyOperation {

        static final int FOUND_DATA = 1;
        static final int JOINING = 2;
        static final int OFFERING = 4;

        private transient int answer;

        public Ask() {
        }

        @Override
        public void run() {
            MemberDisk disk = of(getNodeEngine().getHazelcastInstance());
            answer = (disk.foundData() ? FOUND_DATA : 0) | (disk.joining() ? JOINING : 0)
                    | (disk.offering() ? OFFERING : 0);
        }

        @Override
        public Object getResponse() {
            return answer;
        }
    }
}
