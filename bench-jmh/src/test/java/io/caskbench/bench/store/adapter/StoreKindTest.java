package io.caskbench.bench.store.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import io.caskbench.report.table.StoreCatalog;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The report labels every store this module opens, and nothing else. */
class StoreKindTest {

    @Test
    void everyStoreKindHasACatalogEntry() {
        assertThat(StoreCatalog.all().stream().map(StoreCatalog.Entry::name).toList())
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(StoreKind.values()).map(Enum::name).toList());
        for (StoreCatalog.Entry e : StoreCatalog.all()) {
            assertThat(StoreCatalog.of(e.peer())).as("peer of %s", e.name()).isPresent();
            assertThat(e.crash()).as("crash guarantee of %s", e.name()).isNotBlank();
        }
    }
}
