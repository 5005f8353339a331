package io.caskbench.cli;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/** How keys and values are written on the command line and in the output: UTF-8 text, hex or base64. */
enum KeyEncoding {
    /** The bytes as they are: UTF-8 text on the command line, raw bytes in the output. */
    UTF8,
    /** Hexadecimal digits, two per byte. */
    HEX,
    /** Base64 (RFC 4648, with padding). */
    BASE64;

    /** The bytes {@code text} stands for; {@code what} names it in the error message. */
    byte[] decode(String text, String what) {
        try {
            return switch (this) {
                case UTF8 -> text.getBytes(StandardCharsets.UTF_8);
                case HEX -> HexFormat.of().parseHex(text.strip());
                case BASE64 -> Base64.getDecoder().decode(text.strip());
            };
        } catch (IllegalArgumentException e) {
            throw new UsageException(what + " is not valid " + (this == HEX ? "hex" : "base64") + ": " + e.getMessage());
        }
    }

    /** The bytes as this encoding writes them in the output; raw bytes for {@link #UTF8}. */
    byte[] encode(byte[] bytes) {
        return switch (this) {
            case UTF8 -> bytes;
            case HEX -> HexFormat.of().formatHex(bytes).getBytes(StandardCharsets.US_ASCII);
            case BASE64 -> Base64.getEncoder().encode(bytes);
        };
    }

    /** {@link #encode} followed by a line break, the form of one line of output. */
    byte[] line(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length * 2 + 1);
        out.writeBytes(encode(bytes));
        out.write('\n');
        return out.toByteArray();
    }

    /** The {@code --hex} / {@code --base64} options of a command; UTF-8 when neither is given. */
    static final class Options {
        @ArgGroup(exclusive = true)
        Choice choice;

        /** The chosen encoding. */
        KeyEncoding encoding() {
            return choice == null ? UTF8 : choice.hex ? HEX : choice.base64 ? BASE64 : UTF8;
        }
    }

    /** The mutually exclusive encoding flags. */
    static final class Choice {
        @Option(names = "--hex", description = "Keys and values are hexadecimal.")
        boolean hex;

        @Option(names = "--base64", description = "Keys and values are base64.")
        boolean base64;
    }
}
