#include <sstream>

#include "outputs.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace {

// XML 1.0 text: valid UTF-8, no control characters but tab and newline, markup escaped. Attribute
// values also escape quotes and keep their newlines (&#10;).
std::string xml_escape(const std::string& text, bool attribute) {
  std::string out;
  for (char c : valid_utf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += attribute ? "&quot;" : "\"";
        break;
      case '\'':
        out += attribute ? "&apos;" : "'";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      default:
        out += (static_cast<unsigned char>(c) < 0x20) ? '?' : c;
    }
  }
  return out;
}

std::string attr(const std::string& text) { return xml_escape(text, true); }
std::string body(const std::string& text) { return xml_escape(text, false); }

}  // namespace

std::string junit_xml(const GradeReport& report) {
  const Totals total = totals_of(report.lessons);
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml << "<testsuites name=\"cudamatch-grade\" tests=\"" << total.passed + total.failed + total.not_run
      << "\" failures=\"" << total.failed << "\" skipped=\"" << total.not_run << "\" errors=\"0\" time=\""
      << format_number(report.seconds, 1) << "\">\n";
  for (const auto& lesson : report.lessons) {
    const Totals one = totals_of(lesson);
    xml << "  <testsuite name=\"" << attr(lesson.lesson) << "\" tests=\"" << lesson.items.size() << "\" failures=\""
        << one.failed << "\" skipped=\"" << one.not_run << "\" errors=\"0\">\n";
    xml << "    <properties>\n      <property name=\"score\" value=\"" << format_number(one.score, 4)
        << "\"/>\n      <property name=\"max_score\" value=\"" << format_number(one.max_score, 4)
        << "\"/>\n    </properties>\n";
    for (const auto& item : lesson.items) {
      xml << "    <testcase classname=\"" << attr(lesson.lesson) << "\" name=\"" << attr(item.name) << "\">\n";
      if (item.status == ItemStatus::failed) {
        xml << "      <failure message=\"" << attr(item.reason) << "\" type=\"" << attr(item.kind) << "\">"
            << body(item.output) << "</failure>\n";
      } else if (item.status == ItemStatus::not_run) {
        xml << "      <skipped message=\"" << attr("not run: " + item.reason) << "\"/>\n";
      }
      xml << "      <system-out>"
          << body("score " + format_number(item.score, 4) + " of " + format_number(item.max_score, 4) + " (" +
                  format_number(item.points, 4) + " points): " + item_headline(item) + "\n" + item.output)
          << "</system-out>\n";
      xml << "    </testcase>\n";
    }
    if (!lesson.notes.empty()) xml << "    <system-out>" << body(join(lesson.notes, "\n")) << "</system-out>\n";
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  return xml.str();
}

}  // namespace cudamatch::grade
