/* rlprobe report: draws one uPlot chart per metric from the JSON block #report-data.
   Strings from the run (metric names, finding ids) reach the page only through
   textContent, canvas fillText or uPlot (which uses textContent) - never as markup. */
(function () {
  "use strict";
  var SEVERITY = { critical: "#c62839", warn: "#d98a00", info: "#2d6fc0" };
  var LINE = "#33507a";
  var data = JSON.parse(document.getElementById("report-data").textContent);

  function fmt(v) {
    if (v == null) return "";
    var a = Math.abs(v);
    if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(1);
    return String(+v.toPrecision(4));
  }

  function alpha(hex, a) {
    var n = parseInt(hex.slice(1), 16);
    return "rgba(" + (n >> 16) + "," + ((n >> 8) & 255) + "," + (n & 255) + "," + a + ")";
  }

  // Findings at their onset steps: a thin dashed line on every chart, a bold labelled
  // line and a shaded evidence window on the charts of the metric the finding is about.
  function markers(marks) {
    return {
      hooks: {
        draw: [function (u) {
          var ctx = u.ctx, top = u.bbox.top, height = u.bbox.height;
          var left = u.bbox.left, right = u.bbox.left + u.bbox.width;
          var dpr = window.devicePixelRatio || 1;
          ctx.save();
          marks.forEach(function (m) {
            var colour = SEVERITY[m.severity] || SEVERITY.info;
            var x = u.valToPos(m.step, "x", true);
            if (m.primary && m.window) {
              var x0 = Math.max(left, u.valToPos(m.window[0], "x", true));
              var x1 = Math.min(right, u.valToPos(m.window[1], "x", true));
              if (x1 > x0) {
                ctx.fillStyle = alpha(colour, 0.08);
                ctx.fillRect(x0, top, x1 - x0, height);
              }
            }
            if (x < left || x > right) return;
            ctx.strokeStyle = m.primary ? colour : alpha(colour, 0.55);
            ctx.lineWidth = (m.primary ? 2 : 1) * dpr;
            ctx.setLineDash(m.primary ? [] : [4 * dpr, 3 * dpr]);
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
            if (m.primary) {
              ctx.fillStyle = colour;
              ctx.font = "600 " + Math.round(10 * dpr) + "px system-ui, sans-serif";
              ctx.textAlign = x > right - 120 * dpr ? "right" : "left";
              ctx.fillText(m.label, x + (ctx.textAlign === "left" ? 4 : -4) * dpr, top + 12 * dpr);
            }
          });
          ctx.restore();
        }]
      }
    };
  }

  function options(chart, width) {
    return {
      width: width,
      height: 190,
      scales: { x: { time: false } },
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
      series: [
        { label: "step", value: function (u, v) { return v == null ? "" : String(v); } },
        { label: chart.name, stroke: LINE, width: 1.25, spanGaps: false,
          value: function (u, v) { return fmt(v); } }
      ],
      axes: [
        { stroke: "#555", grid: { stroke: "#eee" }, ticks: { stroke: "#ddd" } },
        { stroke: "#555", size: 56, grid: { stroke: "#eee" }, ticks: { stroke: "#ddd" },
          values: function (u, splits) { return splits.map(fmt); } }
      ],
      plugins: [markers(chart.marks)]
    };
  }

  var plots = [];
  data.charts.forEach(function (chart) {
    var el = document.getElementById(chart.id);
    if (!el) return;
    var width = Math.max(280, el.clientWidth || 560);
    plots.push({ el: el, plot: new uPlot(options(chart, width), [chart.x, chart.y], el) });
  });
  document.documentElement.setAttribute("data-charts-drawn", String(plots.length));

  var pending = null;
  window.addEventListener("resize", function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      plots.forEach(function (p) {
        p.plot.setSize({ width: Math.max(280, p.el.clientWidth), height: 190 });
      });
    }, 100);
  });
})();
