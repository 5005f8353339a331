package io.caskbench.report.chart;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PathDataTest {

    @Test
    void absolutePointsBecomeRelativeTenths() {
        assertThat(PathData.compact("M-5.328125,-3.375 Q-5.328125,-2.578125 -4.703125,-2.109375 L1,2 Z M3,4 L5,6 Z"))
                .isEqualTo("M-5.3-3.4q0,.8,.6,1.3l5.7,4.1zm8.3,7.4l2,2z");
        assertThat(PathData.compact("M0,0 C1,1 2,2 3,3")).isEqualTo("M0,0c1,1,2,2,3,3");
    }

    @Test
    void roundingDoesNotAddUpAlongAContour() {
        // a hundred steps of 0.04 px: each rounds to 0, but the points they reach do not
        StringBuilder d = new StringBuilder("M0,0");
        for (int i = 1; i <= 100; i++) {
            d.append(" L").append(i * 0.04).append(",0");
        }
        String compact = PathData.compact(d.toString());
        double x = 0;
        for (String step : compact.substring("M0,0".length()).split("l")) {
            if (!step.isEmpty()) {
                x += Double.parseDouble(step.substring(0, step.indexOf(',')));
            }
        }
        assertThat(x).isCloseTo(4.0, org.assertj.core.data.Offset.offset(0.05));
    }

    @Test
    void dataItCannotReadComesBackUnchanged() {
        assertThat(PathData.compact("M0,0 A1,1 0 0 1 2,2")).isEqualTo("M0,0 A1,1 0 0 1 2,2");
        assertThat(PathData.compact("M1,2 L3,NaN Z")).isEqualTo("M1,2 L3,NaN Z");
        assertThat(PathData.compact("M1,2 L3")).isEqualTo("M1,2 L3");
    }
}
