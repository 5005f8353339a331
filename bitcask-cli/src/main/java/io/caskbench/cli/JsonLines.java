package io.caskbench.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The line format of {@code dump} and {@code load}: one JSON object a line,
 * {@code {"key":"…","value":"…"}}. A key or value that is not valid UTF-8 is written in base64,
 * and a {@code keyEncoding} or {@code valueEncoding} field says so; {@code load} also accepts
 * {@code "utf8"} there. A salvage adds a {@code salvaged} field to a line whose value open would
 * not read; {@code load} ignores it.
 */
final class JsonLines {

    static final String KEY = "key";
    static final String VALUE = "value";
    static final String KEY_ENCODING = "keyEncoding";
    static final String VALUE_ENCODING = "valueEncoding";
    /** Where a salvaged value came from ({@code dump --skip-corrupt}); {@code load} ignores it. */
    static final String SALVAGED = "salvaged";
    static final String BASE64 = "base64";
    static final String UTF8 = "utf8";

    private final CharsetDecoder strict = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);

    /** One key and value read back. */
    record Entry(byte[] key, byte[] value) {
    }

    /** Writes one line; with a {@code salvaged} field when {@code salvaged} is not null. */
    void write(JsonGenerator g, byte[] key, byte[] value, String salvaged) throws IOException {
        String k = utf8(key);
        String v = utf8(value);
        g.writeStartObject();
        g.writeStringField(KEY, k != null ? k : Base64.getEncoder().encodeToString(key));
        g.writeStringField(VALUE, v != null ? v : Base64.getEncoder().encodeToString(value));
        if (k == null) {
            g.writeStringField(KEY_ENCODING, BASE64);
        }
        if (v == null) {
            g.writeStringField(VALUE_ENCODING, BASE64);
        }
        if (salvaged != null) {
            g.writeStringField(SALVAGED, salvaged);
        }
        g.writeEndObject();
        g.writeRaw('\n');
    }

    /** The text of valid UTF-8 bytes, or null when they are not. */
    private String utf8(byte[] bytes) {
        try {
            return strict.decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /**
     * Reads the object whose start the parser is at.
     *
     * @throws IllegalArgumentException when it is not a line of this format
     */
    static Entry read(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("expected an object {\"key\":…,\"value\":…}, found " + p.currentToken());
        }
        String key = null;
        String value = null;
        String keyEncoding = UTF8;
        String valueEncoding = UTF8;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING) {
                throw new IllegalArgumentException("\"" + field + "\" must be a string");
            }
            switch (field) {
                case KEY -> key = p.getText();
                case VALUE -> value = p.getText();
                case KEY_ENCODING -> keyEncoding = p.getText();
                case VALUE_ENCODING -> valueEncoding = p.getText();
                case SALVAGED -> { } // where a salvage found it: the value loads the same
                default -> throw new IllegalArgumentException("unknown field \"" + field + "\"");
            }
        }
        if (key == null || value == null) {
            throw new IllegalArgumentException("an object needs both \"key\" and \"value\"");
        }
        return new Entry(bytes(key, keyEncoding, KEY), bytes(value, valueEncoding, VALUE));
    }

    private static byte[] bytes(String text, String encoding, String field) {
        if (UTF8.equals(encoding)) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (!BASE64.equals(encoding)) {
            throw new IllegalArgumentException("unknown encoding \"" + encoding + "\" of \"" + field + "\" (utf8 or base64)");
        }
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + field + "\" is not valid base64: " + e.getMessage(), e);
        }
    }
}
