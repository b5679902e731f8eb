"""Excel functions (xlwings, classic and Lite): the engine called from a cell.

``udfs`` holds the functions; ``values`` reads what each runtime passes; ``grids`` reads value
grids through the template's names; ``template_names`` is that map as data, so it works under
Pyodide where no workbook can be written. Nothing here imports an Excel reader, pandas or numpy.
"""
