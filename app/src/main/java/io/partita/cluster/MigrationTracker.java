package io.partita.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.ReplicaMigrationEvent;
import io.micronaut.context.annotation.Context;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Follows the migration processes the master runs, as Hazelcast reports them to every member. Listener callbacks run
 * on Hazelcast's event threads; the state is one immutable snapshot behind an {@link AtomicReference}.
 */
@Context
class MigrationTracker implements MigrationListener {

    private final AtomicReference<MigrationState> current = new AtomicReference<>();

    MigrationTracker(HazelcastInstance hazelcast) {
        hazelcast.getPartitionService().addMigrationListener(this);
    }

    /** Migrations of the running process not yet completed; 0 when none runs. */
    int inFlight() {
        MigrationState state = current.get();
        return state == null ? 0 : state.getRemainingMigrations();
    }

    @Override
    public void migrationStarted(MigrationState state) {
        current.set(state);
    }

    @Override
    public void migrationFinished(MigrationState state) {
        current.set(null);
    }

    @Override
    public void replicaMigrationCompleted(ReplicaMigrationEvent event) {
        current.set(event.getMigrationState());
    }

    @Override
    public void replicaMigrationFailed(ReplicaMigrationEvent event) {
        current.set(event.getMigrationState());
    }
}
