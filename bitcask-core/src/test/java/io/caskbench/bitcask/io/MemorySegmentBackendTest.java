package io.caskbench.bitcask.io;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/** The backend contract on the FFM API's memory segments, which exist from JDK 22 on. */
@EnabledForJreRange(min = JRE.JAVA_22)
class MemorySegmentBackendTest extends SegmentBackendContract {
    @Override
    SegmentBackend backend() {
        return MemorySegmentSupport.create();
    }
}
