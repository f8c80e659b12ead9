package io.partita.account;

import io.partita.node.DiskRecords;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/** Strings under string keys in one map, kept on the members' disks: the records a test registers to watch a recovery. */
abstract class TextRecords extends DiskRecords.Named<String> {

    TextRecords(char prefix, String mapName) {
        super(prefix, mapName);
    }

    @Override
    protected boolean writeValue(DataOutputStream out, String value) throws IOException {
        out.writeUTF(value);
        return true;
    }

    @Override
    protected String readValue(DataInputStream in) throws IOException {
        return in.readUTF();
    }
}
