package io.caskbench.shm.msg;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** ring.h must mirror RingLayout exactly: same names, same values, nothing missing on either side. */
class RingLayoutTest {

    private static final Pattern DEFINE = Pattern.compile("^#define (\\w+) (0x[0-9A-Fa-f]+|\\d+)U?L{0,2}\\s*$");

    @Test
    void cHeaderMirrorsEveryJavaConstant() throws Exception {
        Map<String, BigInteger> c = defines();
        Map<String, BigInteger> java = new HashMap<>();
        for (Field f : RingLayout.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && (f.getType() == int.class || f.getType() == long.class)) {
                long v = ((Number) f.get(null)).longValue();
                java.put(f.getName(), BigInteger.valueOf(v).and(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)));
            }
        }
        assertThat(c).isEqualTo(java);
    }

    @Test
    void ringsArePageAlignedAndDoNotOverlap() {
        int slotBytes = RingLayout.slotBytes(4096);
        assertThat(slotBytes).isEqualTo(4160);
        int r0 = RingLayout.ringOffset(RingLayout.RING_REQUESTS, 64, slotBytes);
        int r1 = RingLayout.ringOffset(RingLayout.RING_REPLIES, 64, slotBytes);
        assertThat(r0 % 4096).isZero();
        assertThat(r1 % 4096).isZero();
        assertThat(r1 - r0).isGreaterThanOrEqualTo(RingLayout.RING_SLOTS + 64 * slotBytes);
        assertThat(RingLayout.fileBytes(64, slotBytes)).isEqualTo(r1 + (r1 - r0));
    }

    private static Map<String, BigInteger> defines() throws IOException {
        Map<String, BigInteger> out = new HashMap<>();
        try (InputStream in = RingLayout.class.getResourceAsStream("/io/caskbench/shm/c/ring.h")) {
            assertThat(in).as("ring.h on the class path").isNotNull();
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                Matcher m = DEFINE.matcher(line.trim());
                if (m.matches() && !m.group(1).startsWith("CASKBENCH_")) {
                    String v = m.group(2);
                    out.put(m.group(1), v.startsWith("0x") ? new BigInteger(v.substring(2), 16) : new BigInteger(v));
                }
            }
        }
        return out;
    }
}
