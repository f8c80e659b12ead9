/*
 * Partita dashboard: polls this node's JSON views every second and redraws. No library, nothing fetched from
 * elsewhere. Each grid cell carries data-partition (its id) and data-owner (the owner's host:port, "" if none), and
 * the grid carries data-version (renders so far) and data-members, so that tests and scripts can read the page.
 */
(function () {
    'use strict';

    const POLL_MILLIS = 1000;
    const PALETTE = ['#4e9af1', '#f4a261', '#2ec4b6', '#e76f51', '#c77dff', '#a7c957', '#ffd166', '#ef476f',
        '#90be6d', '#ff99c8', '#80ced7', '#d4a373'];
    const colors = new Map();
    const grid = document.getElementById('grid');
    const cells = [];
    let version = 0;

    function colorOf(owner) {
        if (!owner) {
            return null;
        }
        if (!colors.has(owner)) {
            // The first free colour, so a member keeps its colour while it lives and a newcomer gets a distinct one.
            const used = new Set(colors.values());
            const free = PALETTE.find(c => !used.has(c)) || PALETTE[colors.size % PALETTE.length];
            colors.set(owner, free);
        }
        return colors.get(owner);
    }

    function compact(n) {
        if (n === null || n === undefined) {
            return '';
        }
        if (n >= 1e6) {
            return (n / 1e6).toFixed(n >= 1e7 ? 0 : 1) + 'M';
        }
        if (n >= 1e4) {
            return Math.round(n / 1e3) + 'k';
        }
        if (n >= 1e3) {
            return (n / 1e3).toFixed(1) + 'k';
        }
        return String(n);
    }

    function text(id, value) {
        document.getElementById(id).textContent = value;
    }

    function ensureCells(count) {
        while (cells.length < count) {
            const cell = document.createElement('div');
            cell.className = 'cell';
            cell.setAttribute('role', 'gridcell');
            cell.dataset.partition = String(cells.length);
            cell.dataset.owner = '';
            grid.appendChild(cell);
            cells.push(cell);
        }
    }

    function renderGrid(partitions) {
        ensureCells(partitions.length);
        for (const p of partitions) {
            const cell = cells[p.id];
            const owner = p.owner || '';
            if (cell.dataset.owner !== owner) {
                if (cell.dataset.owner !== '' && version > 0) {
                    cell.classList.remove('moved');
                    void cell.offsetWidth; // restart the animation
                    cell.classList.add('moved');
                }
                cell.dataset.owner = owner;
            }
            cell.style.backgroundColor = colorOf(owner) || '';
            const entries = p.entries === null || p.entries === undefined ? '' : String(p.entries);
            cell.dataset.entries = entries;
            cell.textContent = compact(p.entries);
            cell.title = 'partition ' + p.id + '\nowner ' + (owner || 'none')
                + '\nbackups ' + (p.backups.length ? p.backups.join(', ') : 'none')
                + '\naccounts ' + (entries === '' ? 'unknown' : entries);
        }
    }

    function renderLegend(nodes) {
        const body = document.querySelector('#legend tbody');
        body.replaceChildren();
        for (const node of nodes) {
            const row = document.createElement('tr');
            row.dataset.member = node.address;
            const swatch = document.createElement('span');
            swatch.className = 'swatch';
            swatch.style.backgroundColor = colorOf(node.address);
            const cells = [swatch, node.address, node.ownedPartitions, compact(node.accounts),
                node.transactionsPerSecond === null ? '' : node.transactionsPerSecond.toFixed(1)];
            cells.forEach((value, i) => {
                const td = document.createElement('td');
                if (value instanceof Node) {
                    td.appendChild(value);
                } else {
                    td.textContent = String(value);
                }
                if (i === 1 && node.local) {
                    td.className = 'local';
                }
                if (i >= 2) {
                    td.classList.add('number');
                }
                row.appendChild(td);
            });
            body.appendChild(row);
        }
    }

    function renderMigrations(migrations) {
        text('migration-counters', migrations.completed + ' completed · ' + migrations.failed + ' failed');
        const list = document.getElementById('processes');
        list.replaceChildren();
        for (const process of migrations.recentProcesses.slice(0, 8)) {
            const item = document.createElement('li');
            item.textContent = new Date(process.finishedAt).toLocaleTimeString() + ': '
                + process.completedMigrations + '/' + process.plannedMigrations + ' migrations in '
                + process.durationMillis + ' ms';
            list.appendChild(item);
        }
    }

    let leasesLoading = false;

    function renderLeases(groups) {
        const body = document.querySelector('#leases tbody');
        body.replaceChildren();
        for (const group of groups.slice(0, 20)) {
            const row = document.createElement('tr');
            const workers = group.workers.map(w => w.workerId + ': ' + w.shards).join(', ') || 'none';
            for (const value of [group.group, group.shards, workers, group.handOvers, group.moves, group.expiries]) {
                const cell = document.createElement('td');
                cell.textContent = String(value);
                row.appendChild(cell);
            }
            body.appendChild(row);
        }
    }

    async function getJson(path) {
        const response = await fetch(path, {cache: 'no-store', headers: {'Accept': 'application/json'}});
        if (!response.ok) {
            throw new Error(path + ' answered ' + response.status);
        }
        return response.json();
    }

    async function refresh() {
        const status = document.getElementById('status');
        try {
            const [cluster, partitions, nodes, migrations] = await Promise.all([
                getJson('/cluster'), getJson('/cluster/partitions'), getJson('/cluster/nodes'),
                getJson('/cluster/migrations')]);
            text('cluster-name', cluster.clusterName);
            text('stat-members', cluster.members.length);
            text('stat-partitions', cluster.partitionCount);
            const known = partitions.filter(p => p.entries !== null && p.entries !== undefined);
            const entries = known.reduce((sum, p) => sum + p.entries, 0);
            text('stat-entries', known.length === partitions.length ? entries.toLocaleString() : entries + '+');
            const tps = nodes.reduce((sum, n) => sum + (n.transactionsPerSecond || 0), 0);
            text('stat-tps', tps.toFixed(1));
            text('stat-inflight', cluster.migrationsInFlight);
            text('stat-moved', migrations.partitionsMoved);
            text('stat-safe', cluster.clusterSafe ? 'yes' : 'no');
            text('stat-cp', cluster.cp.mode + (cluster.cp.members ? ' (' + cluster.cp.members + ')' : ''));
            renderGrid(partitions);
            renderLegend(nodes);
            renderMigrations(migrations);
            // Lease groups come on their own, one request at a time: a slow answer there (a member leaving) must
            // neither hold up the cluster's views nor pile up requests that take the browser's connections.
            if (!leasesLoading) {
                leasesLoading = true;
                getJson('/groups').then(renderLeases).catch(() => {}).finally(() => { leasesLoading = false; });
            }
            version++;
            grid.dataset.members = String(cluster.members.length);
            grid.dataset.version = String(version);
            status.dataset.state = 'live';
            status.textContent = 'live · ' + new Date().toLocaleTimeString();
        } catch (error) {
            status.dataset.state = 'down';
            status.textContent = 'cannot reach this node: ' + error.message;
        } finally {
            setTimeout(refresh, POLL_MILLIS);
        }
    }

    refresh();
})();
