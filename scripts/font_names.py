"""Renames a subset font so that it cannot be taken for the Noto font it was cut from: the
family, full and PostScript names in the name table (Windows records only: one record per
field is all fontdb needs) and in the CFF table. Shared by subset-font.py and
subset-names-font.py."""


def rename(font, family: str, postscript: str, style: str, version: str) -> None:
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 16):
            names.setName(family, record.nameID, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID == 3:
            names.setName(f"{version};{postscript}", 3, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID == 4:
            names.setName(f"{family} {style}", 4, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID == 6:
            names.setName(postscript, 6, record.platformID, record.platEncID,
                          record.langID)
    names.names = [r for r in names.names if r.platformID == 3]
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [postscript]
        top = cff.topDictIndex[0]
        top.FullName = f"{family} {style}"
        top.FamilyName = family
