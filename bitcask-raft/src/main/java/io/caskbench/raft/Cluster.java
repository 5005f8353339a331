package io.caskbench.raft;

import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * Threading: immutable, safe everywhere.
 *
 * <p>The replicas of a cluster and its Raft groups: every replica is a member of every group, and
 * each key belongs to one group, chosen by a stable hash of its bytes, so every client and every
 * version of this code sends a key to the same group.
 */
public final class Cluster {

    /** Peer id to host:port, in the order given. */
    private final Map<String, String> peers;
    /** The groups, index = shard number. */
    private final List<RaftGroup> groups;

    private Cluster(Map<String, String> peers, int groupCount) {
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("a cluster needs at least one peer");
        }
        if (groupCount < 1 || groupCount > 1024) {
            throw new IllegalArgumentException("groups must be 1 to 1024, not " + groupCount);
        }
        this.peers = Collections.unmodifiableMap(new LinkedHashMap<>(peers));
        List<RaftPeer> raftPeers = new ArrayList<>();
        peers.forEach((id, address) -> raftPeers.add(RaftPeer.newBuilder().setId(id).setAddress(address).build()));
        List<RaftGroup> g = new ArrayList<>();
        for (int i = 0; i < groupCount; i++) {
            g.add(RaftGroup.valueOf(groupId(i), raftPeers));
        }
        this.groups = Collections.unmodifiableList(g);
    }

    /**
     * A cluster from {@code n1=127.0.0.1:7001,n2=127.0.0.1:7002,...}.
     *
     * @throws IllegalArgumentException when the list is malformed or names a peer twice
     */
    public static Cluster parse(String peerList, int groupCount) {
        Map<String, String> peers = new LinkedHashMap<>();
        for (String item : peerList.split(",")) {
            String[] parts = item.trim().split("=", 2);
            if (parts.length != 2 || parts[0].isBlank() || !parts[1].matches("[^:]+:\\d{1,5}")) {
                throw new IllegalArgumentException("peer must be id=host:port, not '" + item + "'");
            }
            if (peers.put(parts[0].trim(), parts[1].trim()) != null) {
                throw new IllegalArgumentException("peer " + parts[0] + " named twice");
            }
        }
        return new Cluster(peers, groupCount);
    }

    /** The peers: id to host:port. */
    public Map<String, String> peers() {
        return peers;
    }

    /** The groups, index = shard number. */
    public List<RaftGroup> groups() {
        return groups;
    }

    /** The port of peer {@code id}. */
    public int port(String id) {
        String address = peers.get(id);
        if (address == null) {
            throw new IllegalArgumentException("no peer " + id + " in " + peers.keySet());
        }
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    /** The host of peer {@code id}. */
    public String host(String id) {
        String address = peers.get(id);
        if (address == null) {
            throw new IllegalArgumentException("no peer " + id + " in " + peers.keySet());
        }
        return address.substring(0, address.lastIndexOf(':'));
    }

    /** The group a key belongs to: CRC32C of its bytes modulo the number of groups. */
    public int shardOf(byte[] key) {
        CRC32C crc = new CRC32C();
        crc.update(key);
        return (int) (crc.getValue() % groups.size());
    }

    /** The fixed id of group {@code i}, the same on every replica and client. */
    public static RaftGroupId groupId(int i) {
        return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("bitcask-raft-group-" + i).getBytes(StandardCharsets.UTF_8)));
    }

    /** The Raft id of peer {@code id}. */
    public static RaftPeerId peerId(String id) {
        return RaftPeerId.valueOf(id);
    }
}
