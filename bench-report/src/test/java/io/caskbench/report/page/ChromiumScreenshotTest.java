package io.caskbench.report.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.caskbench.report.testing.SampleRuns;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the rendered sample page in headless Chromium and checks that the screenshot shows a page with
 * its charts (many strongly coloured pixels: bars), not a blank or broken one. Skips when Chromium is
 * not installed ({@code apt-get install chromium}); the screenshot is kept in
 * {@code target/screenshots/report.png} for a person to look at.
 */
class ChromiumScreenshotTest {

    private static final Path CHROMIUM = Path.of(System.getProperty("caskbench.chromium", "/usr/bin/chromium"));

    @TempDir
    Path dir;

    @Test
    void sampleReportRendersWithCharts() throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(CHROMIUM), "no Chromium at " + CHROMIUM + ": screenshot test skipped");
        Path index = Reports.renderAll(SampleRuns.copy("sample-run", dir));
        Path shot = dir.resolve("report.png");
        List<String> cmd = List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--user-data-dir=" + dir.resolve("profile"), "--window-size=1280,3000",
                "--screenshot=" + shot, index.toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        // Generous: the machine is shared; the bound only keeps a stuck browser from hanging the build.
        boolean done = p.waitFor(180, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertThat(done).as("Chromium finished; log: %s", readLog()).isTrue();
        assertThat(shot).as("screenshot written; log: %s", readLog()).exists();

        BufferedImage img = ImageIO.read(shot.toFile());
        assertThat(img.getWidth()).isEqualTo(1280);
        assertThat(colouredPixels(img)).as("bars of the charts are visible").isGreaterThan(20_000);

        Path keep = Path.of("target", "screenshots");
        Files.createDirectories(keep);
        Files.copy(shot, keep.resolve("report.png"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** Pixels with strong colour (bars); text, borders and backgrounds are nearly grey. */
    private static int colouredPixels(BufferedImage img) {
        int n = 0;
        for (int y = 0; y < img.getHeight(); y += 2) {
            for (int x = 0; x < img.getWidth(); x += 2) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 0xff;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 120) {
                    n++;
                }
            }
        }
        return n;
    }

    private String readLog() {
        try {
            return Files.readString(dir.resolve("chromium.log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }
}
