package io.caskbench.bitcask.events;

import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Recording;
import jdk.jfr.ValueDescriptor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The events' metadata, the settings file beside them, and the slow events' guard. */
class EventTypesTest {

    private static final List<Class<? extends Event>> ALL = List.of(StoreOpenEvent.class, RolloverEvent.class,
            ForceEvent.class, MergeEvent.class, HintWriteEvent.class, WriteRefusedEvent.class, WriteStallEvent.class,
            SlowGetEvent.class, SlowPutEvent.class);
    /** Fields every JFR event has, described by the JDK. */
    private static final Set<String> BUILT_IN = Set.of("startTime", "duration", "eventThread", "stackTrace");

    @Test
    void everyEventHasANameCategoryLabelAndDescribedFields() {
        for (Class<? extends Event> c : ALL) {
            EventType t = EventType.getEventType(c);
            assertThat(t.getName()).as(c.getSimpleName()).startsWith("io.caskbench.bitcask.");
            assertThat(t.getCategoryNames()).as(c.getSimpleName()).containsExactly("BitCask");
            assertThat(t.getLabel()).as(c.getSimpleName()).startsWith("BitCask ");
            assertThat(t.getDescription()).as(c.getSimpleName()).isNotBlank();
            assertThat(t.getField("store")).as("%s names its store", c.getSimpleName()).isNotNull();
            for (ValueDescriptor f : t.getFields()) {
                if (!BUILT_IN.contains(f.getName())) {
                    assertThat(f.getLabel()).as("%s.%s label", c.getSimpleName(), f.getName()).isNotBlank();
                    assertThat(f.getDescription()).as("%s.%s description", c.getSimpleName(), f.getName()).isNotBlank();
                }
            }
        }
    }

    @Test
    void theSettingsFileEnablesEveryEventAndSlowOnesAboveTenMilliseconds() throws Exception {
        Map<String, String> s = EventSettings.bitcask().getSettings();
        for (Class<? extends Event> e : ALL) {
            assertThat(s).as(e.getSimpleName()).containsEntry(EventType.getEventType(e).getName() + "#enabled", "true");
        }
        assertThat(s).containsEntry("io.caskbench.bitcask.SlowGet#threshold", "10 ms")
                .containsEntry("io.caskbench.bitcask.SlowPut#threshold", "10 ms");
        Map<String, String> both = EventSettings.over("default");
        assertThat(both).containsAllEntriesOf(s).containsEntry("jdk.GarbageCollection#enabled", "true");
    }

    @Test
    void slowEventsStartOnlyWhileARecordingEnablesThem() {
        assertThat(SlowGetEvent.start()).as("no recording").isNull();
        assertThat(SlowPutEvent.start()).as("no recording").isNull();
        try (Recording defaults = new Recording()) {
            defaults.enable(ForceEvent.class);
            defaults.start();
            assertThat(SlowGetEvent.start()).as("a recording without them").isNull();
            assertThat(SlowPutEvent.start()).as("a recording without them").isNull();
            try (Recording slow = new Recording()) {
                slow.enable(SlowGetEvent.class).withThreshold(java.time.Duration.ofMillis(10));
                slow.enable(SlowPutEvent.class).withThreshold(java.time.Duration.ofMillis(10));
                slow.start();
                assertThat(SlowGetEvent.start()).isNotNull();
                assertThat(SlowPutEvent.start()).isNotNull();
            }
        }
        assertThat(SlowGetEvent.start()).as("after the recording").isNull();
    }
}
