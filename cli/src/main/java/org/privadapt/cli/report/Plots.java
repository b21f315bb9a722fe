package org.privadapt.cli.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG plots of sweeps: accuracy (percent) against the swept parameter, one line per method, averaged over tasks. */
public final class Plots {
    private Plots() {
    }

    /**
     * @param param   the swept parameter (x axis)
     * @param results sweep results; each must carry {@code param} in its sweep map with a numeric value
     */
    /**
     * Accuracy against a swept parameter, one line per method, averaged over the tasks in {@code results}; with
     * repeated runs each point carries an error bar of the run-to-run standard deviation (averaged over tasks).
     */
    public static byte[] sweepPng(String title, String param, List<Report.TaskResult> results) throws IOException {
        Map<String, Map<Double, List<Double>>> series = new LinkedHashMap<>();
        Map<String, Map<Double, List<Double>>> spread = new LinkedHashMap<>();
        boolean repeated = false;
        boolean mse = results.stream().anyMatch(Report.TaskResult::isRegression);
        double unit = mse ? 1.0 : 100.0;
        for (Report.TaskResult r : results) {
            String x = r.sweep() == null ? null : r.sweep().get(param);
            if (x == null) {
                continue;
            }
            series.computeIfAbsent(r.method(), k -> new java.util.TreeMap<>())
                    .computeIfAbsent(Double.parseDouble(x), k -> new ArrayList<>()).add(unit * r.scoreMean());
            spread.computeIfAbsent(r.method(), k -> new java.util.TreeMap<>())
                    .computeIfAbsent(Double.parseDouble(x), k -> new ArrayList<>())
                    .add(r.runs() > 1 && Double.isFinite(r.scoreStd()) ? unit * r.scoreStd() : 0.0);
            repeated |= r.runs() > 1;
        }
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(param)
                .yAxisTitle(mse ? "target test MSE" : "target accuracy (%)").build();
        chart.getStyler().setMarkerSize(7);
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Map<Double, List<Double>> m : series.values()) {
            for (double x : m.keySet()) {
                lo = Math.min(lo, x);
                hi = Math.max(hi, x);
            }
        }
        if (lo > 0 && hi / lo >= 100) {
            chart.getStyler().setXAxisLogarithmic(true); // e.g. regularisation sweeps over decades
        }
        // methods with no value of the swept parameter (the non-private baselines of an epsilon sweep): a flat
        // reference line across the swept range at their mean over tasks (issue 33)
        Map<String, List<Double>> flat = new LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            if ((r.sweep() == null || r.sweep().get(param) == null) && !series.containsKey(r.method()) && Double.isFinite(r.scoreMean())) {
                flat.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(unit * r.scoreMean());
            }
        }
        if (lo <= hi) {
            for (Map.Entry<String, List<Double>> e : flat.entrySet()) {
                double y = e.getValue().stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
                chart.addSeries(e.getKey() + " (no " + param + ": reference)", new double[] {lo, hi}, new double[] {y, y})
                        .setMarker(SeriesMarkers.NONE).setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
            }
        }
        for (Map.Entry<String, Map<Double, List<Double>>> e : series.entrySet()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            List<Double> errs = new ArrayList<>();
            for (Map.Entry<Double, List<Double>> p : e.getValue().entrySet()) {
                xs.add(p.getKey());
                ys.add(p.getValue().stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN));
                // error bar: the run-to-run standard deviation (averaged over the tasks at this x)
                errs.add(spread.get(e.getKey()).get(p.getKey()).stream().mapToDouble(Double::doubleValue).average().orElse(0));
            }
            if (repeated) {
                chart.addSeries(e.getKey(), xs, ys, errs).setMarker(SeriesMarkers.CIRCLE);
            } else {
                chart.addSeries(e.getKey(), xs, ys).setMarker(SeriesMarkers.CIRCLE);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", out);
        return out.toByteArray();
    }

    /**
     * A plain bench (no sweep): grouped bars, one group per task (and the average over tasks when there are several),
     * one bar per method, with the run-to-run standard deviation as an error bar when runs were repeated.
     */
    public static byte[] barsPng(String title, List<Report.TaskResult> results) throws IOException {
        boolean mse = results.stream().anyMatch(Report.TaskResult::isRegression);
        double unit = mse ? 1.0 : 100.0;
        List<String> tasks = new ArrayList<>();
        Map<String, Map<String, Report.TaskResult>> byMethod = new LinkedHashMap<>();
        for (Report.TaskResult r : results) {
            if (!tasks.contains(r.task())) {
                tasks.add(r.task());
            }
            byMethod.computeIfAbsent(r.method(), k -> new LinkedHashMap<>()).put(r.task(), r);
        }
        List<String> groups = new ArrayList<>(tasks);
        if (tasks.size() > 1) {
            groups.add("average");
        }
        org.knowm.xchart.CategoryChart chart = new org.knowm.xchart.CategoryChartBuilder().width(Math.max(900, 90 * groups.size()))
                .height(500).title(title).xAxisTitle("task").yAxisTitle(mse ? "target test MSE" : "target accuracy (%)").build();
        // every group labelled: XChart drops labels that would overlap, so they are turned to fit
        chart.getStyler().setXAxisLabelRotation(groups.size() > 8 ? 45 : 0);
        chart.getStyler().setXAxisMaxLabelCount(groups.size());
        boolean repeated = results.stream().anyMatch(r -> r.runs() > 1);
        for (Map.Entry<String, Map<String, Report.TaskResult>> e : byMethod.entrySet()) {
            List<Double> ys = new ArrayList<>();
            List<Double> errs = new ArrayList<>();
            double sum = 0;
            int n = 0;
            for (String t : tasks) {
                Report.TaskResult r = e.getValue().get(t);
                double y = r == null ? Double.NaN : unit * r.scoreMean();
                ys.add(y);
                errs.add(r != null && r.runs() > 1 && Double.isFinite(r.scoreStd()) ? unit * r.scoreStd() : 0.0);
                if (Double.isFinite(y)) {
                    sum += y;
                    n++;
                }
            }
            if (tasks.size() > 1) {
                ys.add(n == tasks.size() ? sum / n : Double.NaN);
                errs.add(0.0);
            }
            if (repeated) {
                chart.addSeries(e.getKey(), groups, ys, errs);
            } else {
                chart.addSeries(e.getKey(), groups, ys);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", out);
        return out.toByteArray();
    }

    /** A plain line plot: one series per entry, x values with their y values (same order). */
    public static byte[] linesPng(String title, String xTitle, String yTitle, Map<String, double[][]> series) throws IOException {
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setMarkerSize(7);
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]).setMarker(SeriesMarkers.CIRCLE);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(BitmapEncoder.getBufferedImage(chart), "png", out);
        return out.toByteArray();
    }
}
