import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { API_TITLE, OPENAPI_JSON_PATH, OPENAPI_UI_PATH } from './openapi';

/** Where the API describes itself. */
export class ApiIndex {
  @ApiProperty({ example: API_TITLE })
  name: string;

  @ApiProperty({ description: 'The interactive documentation (Swagger UI).', example: `/${OPENAPI_UI_PATH}` })
  docs: string;

  @ApiProperty({ description: 'The OpenAPI 3 document.', example: `/${OPENAPI_JSON_PATH}` })
  openapi: string;
}

/**
 * GET /: someone who opens the gateway's address in a browser, or curls it, learns where the
 * documentation is instead of meeting a bare 404. No API key needed, as for the docs themselves.
 */
@ApiTags('documentation')
@Controller()
export class IndexController {
  @Get()
  @ApiOperation({ operationId: 'index', summary: 'Where the documentation is' })
  @ApiOkResponse({ type: ApiIndex, description: 'The paths of the interactive documentation and the OpenAPI document.' })
  index(): ApiIndex {
    return { name: API_TITLE, docs: `/${OPENAPI_UI_PATH}`, openapi: `/${OPENAPI_JSON_PATH}` };
  }
}
