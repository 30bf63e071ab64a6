"""A rendered page longer than the row bound (issue 26: long strings)."""


def render_page(rows):
    html = "<html><body><table>"
    for i in range(rows):
        html += "<tr><td>row %04d</td><td>value</td></tr>" % i
    html += "</table></body></html>"
    return html


page = render_page(150)
summary = render_page(20)
pair = [page[:300] + "Z", "tail"]
print(len(page))
