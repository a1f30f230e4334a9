package extract
